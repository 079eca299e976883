import { join } from "node:path";
import { type LinkPaths, logger } from "../base/mod.ts";
import { runnerFilePath, runnersDir, writeRunnerFile } from "./runner_file.ts";
import { type RunnerProcess, startRunner } from "./runner_process.ts";

const log = logger("runners");

/** An agent as the runners see it: its zone and its way in. */
export interface ScheduledAgent {
  id: string;
  /** The agent's `[run] time_zone`, or the machine's. */
  zone: string;
  /** Its way-in socket, through which a firing reaches it. */
  wayIn: string;
}

/**
 * The shared bridge's scheduler runners, one a time zone (PRC-6, PRC-7): each zone's agents in its
 * file, `~/.lnk/runners/<zone>.json`, written when they change and read again by its runner, so a
 * change of agents never restarts a runner. A zone its first agent enters gets a runner; one its
 * last agent leaves has its file emptied and its runner ended (it lets firings under way finish).
 * A runner that ends unbidden is started again at the next change.
 */
export class RunnerPool implements AsyncDisposable {
  #paths: LinkPaths;
  #runners = new Map<string, RunnerProcess>();
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(paths: LinkPaths) {
    this.#paths = paths;
  }

  /** The runners running now, by zone. */
  get runners(): { zone: string; pid: number }[] {
    return [...this.#runners.values()].map((r) => ({ zone: r.zone, pid: r.pid }))
      .sort((a, b) => a.zone.localeCompare(b.zone));
  }

  /** Hands the runners these agents: one step at a time, in the order asked. */
  update(agents: readonly ScheduledAgent[]): Promise<void> {
    const step = this.#queue.then(() => this.#apply(agents));
    this.#queue = step.catch(() => {});
    return step;
  }

  async #apply(agents: readonly ScheduledAgent[]): Promise<void> {
    if (this.#closed) return;
    const zones = new Map<string, ScheduledAgent[]>();
    for (const agent of agents) zones.set(agent.zone, [...(zones.get(agent.zone) ?? []), agent]);
    for (const [zone, inZone] of zones) {
      const sorted = [...inZone].sort((a, b) => a.id.localeCompare(b.id));
      const file = runnerFilePath(this.#paths, zone);
      await writeRunnerFile(file, { zone, agents: sorted.map((a) => ({ id: a.id, way_in: a.wayIn })) });
      if (this.#runners.has(zone)) continue;
      try {
        this.#watch(await startRunner(zone, { file }));
      } catch (err) {
        log.error("Cannot start the scheduler runner of a zone", { zone, error: err });
      }
    }
    for (const [zone, runner] of [...this.#runners]) {
      if (zones.has(zone)) continue;
      // Emptied first, so the runner takes its agents off as it would at any change.
      await writeRunnerFile(runnerFilePath(this.#paths, zone), { zone, agents: [] });
      this.#runners.delete(zone);
      await runner.stop();
      log.info("Scheduler runner ended: its zone has no agent left", { zone, pid: runner.pid });
    }
    await this.#removeStaleFiles(new Set([...zones.keys()].map((z) => runnerFilePath(this.#paths, z))));
  }

  #watch(runner: RunnerProcess): void {
    this.#runners.set(runner.zone, runner);
    log.info("Scheduler runner started", { zone: runner.zone, pid: runner.pid });
    void runner.status.then((status) => {
      if (this.#runners.get(runner.zone) !== runner) return;
      this.#runners.delete(runner.zone);
      log.error("The scheduler runner ended unbidden: it starts again at the next change", {
        zone: runner.zone,
        code: status.code,
      });
    });
  }

  async #removeStaleFiles(kept: Set<string>): Promise<void> {
    const dir = runnersDir(this.#paths);
    try {
      for await (const entry of Deno.readDir(dir)) {
        const path = join(dir, entry.name);
        if (entry.isFile && entry.name.endsWith(".json") && !kept.has(path)) {
          await Deno.remove(path).catch(() => {});
        }
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }

  /** Ends every runner and waits for each; their files stay for the next bridge to rewrite. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    await this.#queue;
    const runners = [...this.#runners.values()];
    this.#runners.clear();
    await Promise.all(runners.map((r) => r.stop()));
  }
}
