import { atomicWrite, isTempName, joinPath as join, LinkError, logger } from "../base/mod.ts";
import { Job, JobId } from "./job.ts";

const log = logger("jobs");

/** What a listing found: the jobs that read, and the files that did not (named, never dropped). */
export interface JobListing {
  jobs: Job[];
  broken: { file: string; why: string }[];
}

/**
 * An agent's jobs: one file a job in `Agent/schedule/jobs/` (SCH-1), a folder no sandbox shows
 * (LAY-3), written by Link alone (its CLI, its scheduler tools, its runner). A job is kept by one
 * rename, so a reader sees it whole or not at all; it is cancelled by removing its file.
 */
export class JobStore {
  readonly dir: string;

  /** `schedule` is the agent's `Agent/schedule` folder. */
  constructor(schedule: string) {
    this.dir = join(schedule, "jobs");
  }

  /** Keeps a new job; an id already kept is refused. */
  async add(job: Job): Promise<void> {
    const checked = Job.parse(job);
    const path = this.#path(checked.id);
    if (await exists(path)) {
      throw new LinkError("CONFLICT", `Cannot keep job ${checked.id}: a job with that id exists`);
    }
    await atomicWrite(path, `${JSON.stringify(checked, null, 2)}\n`);
  }

  /** One job, or undefined when there is none by that id (or it does not read). */
  async get(id: string): Promise<Job | undefined> {
    if (!JobId.safeParse(id).success) return undefined;
    let text: string;
    try {
      text = await Deno.readTextFile(this.#path(id));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }
    const parsed = Job.safeParse(safeJson(text));
    return parsed.success ? parsed.data : undefined;
  }

  /** Every job kept, oldest first, and the files that are not jobs. */
  async list(): Promise<JobListing> {
    const listing: JobListing = { jobs: [], broken: [] };
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(this.dir));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return listing;
      throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile || isTempName(entry.name) || !entry.name.endsWith(".json")) continue;
      const file = join(this.dir, entry.name);
      let text: string;
      try {
        text = await Deno.readTextFile(file);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue; // removed meanwhile
        throw err;
      }
      const parsed = Job.safeParse(safeJson(text));
      if (!parsed.success || `${parsed.data.id}.json` !== entry.name) {
        const why = parsed.success
          ? "its name is not its id"
          : parsed.error.issues[0]?.message ?? "not a job";
        log.warn("A file of the schedule is not a job", { file, why });
        listing.broken.push({ file, why });
        continue;
      }
      listing.jobs.push(parsed.data);
    }
    listing.jobs.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
    return listing;
  }

  /** Removes a job; says whether there was one. */
  async remove(id: string): Promise<boolean> {
    if (!JobId.safeParse(id).success) return false;
    try {
      await Deno.remove(this.#path(id));
      return true;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return false;
      throw err;
    }
  }

  #path(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
