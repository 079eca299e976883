import { z } from "zod";
import { atomicWrite, isTempName, joinPath as join, readTextIfExists } from "../base/mod.ts";
import { Job } from "./job.ts";

/**
 * Where a firing stands, each step kept before the next is taken:
 * - `taken`: this (job, due) is being fired; its message may have reached the agent;
 * - `answered`: the agent answered, its answer kept here, not yet delivered;
 * - `delivered`: the answer went where the job's reply says (or nowhere, `none`);
 * - `skipped`: the due was missed by more than the catch-up window, and not fired;
 * - `dropped`: the job could not be fired at all (its agent was removed).
 */
export const FiringState = z.enum(["taken", "answered", "delivered", "skipped", "dropped"]);
export type FiringState = z.infer<typeof FiringState>;

/** One firing of a job at one due time: a file of `Agent/schedule/fired/`. */
export const FiringRecord = z.strictObject({
  v: z.literal(1),
  /** The job as it was when taken: a job removed meanwhile still finishes what it began. */
  job: Job,
  /** The due time this firing is for (ms since the epoch). */
  due: z.number().int(),
  /**
   * `link.local/request`: the same at every retry, so the harness answers once; a new one
   * (`<request>#<attempt>`) only after a turn that failed, which the harness keeps as the answer.
   */
  request: z.string().min(1),
  /** Which try this is, from 2 once a turn failed (absent: the first). */
  attempt: z.number().int().min(2).optional(),
  state: FiringState,
  /** When the state last moved (ms since the epoch). */
  at: z.number().int(),
  /** The agent's answer, kept from `answered` on, so a delivery retried never asks again. */
  answer: z.string().optional(),
  /** The answer's own job (reply `agent`), once it is kept (TEAM-6). */
  answer_job: z.string().optional(),
  /** Why it went as it did, when not plainly (skipped, dropped, past the hop cap). */
  note: z.string().optional(),
});
export type FiringRecord = z.infer<typeof FiringRecord>;

/** The request id of a job's firing at a due time: the job's id and the due's instant. */
export function firingRequest(jobId: string, due: number): string {
  return `schedule:${jobId}@${new Date(due).toISOString()}`;
}

/**
 * The firings of an agent's jobs (SCH-1: each fired once), `Agent/schedule/fired/<job>@<due>.json`: taken by
 * creating its file, which only one process can do (a link, which fails when the name exists, so
 * two runners or a restart overlapping the old take it once), and moved on by a rename, so a
 * reader sees one state or the next. Working on a job's firings is done holding the job's lock,
 * `<job>.lock`, which the kernel lets go when its holder dies: a runner that finds a firing
 * `taken` while holding the lock knows its taker is gone and goes on from there.
 */
export class FiringRecords {
  readonly dir: string;

  /** `schedule` is the agent's `Agent/schedule` folder. */
  constructor(schedule: string) {
    this.dir = join(schedule, "fired");
  }

  /** The file of a job's firing at a due time. */
  path(jobId: string, due: number): string {
    return join(this.dir, `${jobId}@${due}.json`);
  }

  /**
   * Takes the job's firing at `due`: the record made whole, then linked to its name, or undefined
   * when that firing was taken already (by this runner before, or by another).
   */
  async take(job: Job, due: number, now: number): Promise<FiringRecord | undefined> {
    const record = FiringRecord.parse({
      v: 1,
      job,
      due,
      request: firingRequest(job.id, due),
      state: "taken",
      at: now,
    });
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = join(this.dir, `.${crypto.randomUUID()}.tmp`);
    await atomicWrite(tmp, `${JSON.stringify(record, null, 2)}\n`);
    try {
      await Deno.link(tmp, this.path(job.id, due));
      return record;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) return undefined;
      throw err;
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
  }

  /** Moves a firing on to its next state, kept with one rename. */
  async move(
    record: FiringRecord,
    next: Partial<FiringRecord> & { state: FiringState },
  ): Promise<FiringRecord> {
    const moved = FiringRecord.parse({ ...record, ...next });
    await atomicWrite(this.path(record.job.id, record.due), `${JSON.stringify(moved, null, 2)}\n`);
    return moved;
  }

  /** Keeps a firing that was never sent (skipped or dropped), unless one is kept for that due. */
  async note(
    job: Job,
    due: number,
    how: { state: "skipped" | "dropped"; note: string; now: number },
  ): Promise<FiringRecord> {
    const record = FiringRecord.parse({
      v: 1,
      job,
      due,
      request: firingRequest(job.id, due),
      state: how.state,
      at: how.now,
      note: how.note,
    });
    await atomicWrite(this.path(job.id, due), `${JSON.stringify(record, null, 2)}\n`);
    return record;
  }

  /** A job's firings, oldest due first; a file that does not read is left out (listed by all()). */
  async of(jobId: string): Promise<FiringRecord[]> {
    return (await this.all()).records.filter((r) => r.job.id === jobId);
  }

  /** Every firing kept, oldest due first, and the files that are not firings. */
  async all(): Promise<{ records: FiringRecord[]; broken: string[] }> {
    const out: { records: FiringRecord[]; broken: string[] } = { records: [], broken: [] };
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(this.dir));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return out;
      throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile || isTempName(entry.name) || !entry.name.endsWith(".json")) continue;
      const text = await readTextIfExists(join(this.dir, entry.name));
      if (text === undefined) continue; // removed meanwhile
      const parsed = FiringRecord.safeParse(safeJson(text));
      if (!parsed.success || entry.name !== `${parsed.data.job.id}@${parsed.data.due}.json`) {
        out.broken.push(join(this.dir, entry.name));
        continue;
      }
      out.records.push(parsed.data);
    }
    out.records.sort((a, b) => a.due - b.due || a.job.id.localeCompare(b.job.id));
    return out;
  }

  /** Removes a firing's file; one gone already is no error. */
  async remove(record: { job: { id: string }; due: number }): Promise<void> {
    await Deno.remove(this.path(record.job.id, record.due)).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
  }

  /**
   * Holds the job's lock, waiting while another runner holds it. The lock file is removed with a
   * one-shot job's last firing; a lock taken on a file removed meanwhile is let go and taken again
   * on the file now at the name, so two runners never hold one job's lock at once.
   */
  async lock(jobId: string): Promise<JobLock> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const path = join(this.dir, `${jobId}.lock`);
    for (;;) {
      const file = await Deno.open(path, { create: true, write: true, mode: 0o600 });
      try {
        await file.lock(true);
        const held = await file.stat();
        const named = await Deno.stat(path).catch(() => undefined);
        if (named && named.ino === held.ino && named.dev === held.dev) return jobLock(file, path);
      } catch (err) {
        file.close();
        throw err;
      }
      file.close();
    }
  }
}

/** A job's lock, held: `drop()` removes its file (a one-shot job done), then lets it go. */
export interface JobLock extends Disposable {
  release(): void;
  drop(): Promise<void>;
}

function jobLock(file: Deno.FsFile, path: string): JobLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    file.close(); // closing lets the lock go
  };
  const drop = async () => {
    await Deno.remove(path).catch(() => {});
    release();
  };
  return { release, drop, [Symbol.dispose]: release };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
