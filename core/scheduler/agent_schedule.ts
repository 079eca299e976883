import { logger } from "../base/mod.ts";
import { type FiringContext, isFinal, runJob } from "./fire_job.ts";
import { FiringRecords } from "./firing_record.ts";
import { JobStore } from "./job_store.ts";

const log = logger("runner");

/** The longest a runner sleeps at once: a machine suspended or a clock set anew is seen this soon. */
const MAX_SLEEP_MS = 60 * 60_000;
/** A pass that failed (a file that could not be read) is tried again this much later. */
const FAILED_PASS_MS = 60_000;
/** How long the firing of a job done is kept (so a retried answer is never kept twice). */
export const KEEP_DONE_MS = 7 * 24 * 60 * 60_000;

/** Options for AgentSchedule.start: the firing context, with the agent's `Agent/schedule` folder. */
export type AgentScheduleOptions = Omit<FiringContext, "jobs" | "records" | "signal"> & { schedule: string };

interface JobLoop {
  /** Something of the job's changed: it is looked at again now. */
  poke(): void;
  done: Promise<void>;
}

/**
 * One agent's jobs, fired as each is due (SCH-1): its `jobs/` folder watched, so a job the CLI or
 * the agent's tools add is taken at once (no polling), and each job run in a loop of its own that
 * sleeps on the clock until it is next due, or until its file changes. A firing a dead runner left
 * is taken on at the start. At its end, firings under way finish; waits end.
 */
export class AgentSchedule implements AsyncDisposable {
  #ctx: FiringContext;
  #stop = new AbortController();
  #loops = new Map<string, JobLoop>();
  #watcher: Deno.FsWatcher;
  #watching: Promise<void>;
  #scanning: Promise<void> = Promise.resolve();

  /** Use AgentSchedule.start. */
  constructor(ctx: FiringContext, watcher: Deno.FsWatcher) {
    this.#ctx = ctx;
    this.#watcher = watcher;
    this.#watching = (async () => {
      for await (const _ of watcher) this.#rescan();
    })().catch((err) =>
      log.error("The runner stopped watching the agent's jobs", { agent: ctx.agentId, error: err })
    );
  }

  /** Watches the agent's jobs and starts firing them; resolves once the first look is done. */
  static async start(options: AgentScheduleOptions): Promise<AgentSchedule> {
    const { schedule, ...rest } = options;
    const jobs = new JobStore(schedule);
    await Deno.mkdir(jobs.dir, { recursive: true, mode: 0o700 });
    const self = new AgentSchedule(
      { ...rest, jobs, records: new FiringRecords(schedule), signal: undefined },
      Deno.watchFs(jobs.dir, { recursive: false }),
    );
    self.#ctx.signal = self.#stop.signal;
    self.#rescan();
    await self.#scanning;
    return self;
  }

  /** The jobs looked after now, by id. */
  get jobs(): string[] {
    return [...this.#loops.keys()].sort();
  }

  #rescan(): void {
    this.#scanning = this.#scanning.then(() => this.#scan()).catch((err) =>
      log.error("Cannot read the agent's jobs", { agent: this.#ctx.agentId, error: err })
    );
  }

  async #scan(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    const { jobs, broken } = await this.#ctx.jobs.list();
    if (broken.length) {
      log.debug("Files of the schedule that are not jobs", { agent: this.#ctx.agentId, broken });
    }
    const ids = new Set(jobs.map((j) => j.id));
    const now = this.#ctx.clock.now();
    for (const record of (await this.#ctx.records.all()).records) {
      // A firing left under way, its job removed meanwhile, is still taken on.
      if (!isFinal(record)) ids.add(record.job.id);
      else if (!ids.has(record.job.id) && now - record.at > KEEP_DONE_MS) {
        await this.#ctx.records.remove(record);
      }
    }
    for (const [id, loop] of this.#loops) if (!ids.has(id)) loop.poke();
    for (const id of ids) {
      const loop = this.#loops.get(id);
      if (loop) loop.poke();
      else this.#loops.set(id, this.#loop(id));
    }
  }

  #loop(id: string): JobLoop {
    let dirty = false;
    let wake = new AbortController();
    const poke = () => {
      dirty = true;
      wake.abort();
    };
    const done = (async () => {
      while (!this.#stop.signal.aborted) {
        dirty = false;
        wake = new AbortController();
        let next: number | undefined;
        try {
          next = await runJob(id, this.#ctx);
        } catch (err) {
          if (this.#stop.signal.aborted) break;
          log.error("Cannot fire the job: it is looked at again later", {
            agent: this.#ctx.agentId,
            job: id,
            error: err,
          });
          next = this.#ctx.clock.now() + FAILED_PASS_MS;
        }
        if (dirty) continue;
        if (next === undefined) break;
        const wait = Math.min(Math.max(0, next - this.#ctx.clock.now()), MAX_SLEEP_MS);
        await this.#ctx.clock.sleep(wait, AbortSignal.any([this.#stop.signal, wake.signal])).catch(() => {});
      }
      this.#loops.delete(id);
    })();
    return { poke, done };
  }

  /** Stops firing anything new and waits for the firings under way to finish. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#stop.abort();
    this.#watcher.close();
    await this.#watching;
    await this.#scanning;
    await Promise.all([...this.#loops.values()].map((l) => l.done));
  }
}
