import { type Clock, type LinkPaths, logger, parseDuration, SYSTEM_CLOCK } from "../base/mod.ts";
import { layoutOf, loadAgentConfig, loadSettings } from "../agent/mod.ts";
import { AgentSchedule } from "./agent_schedule.ts";
import { doorDriver } from "./door_driver.ts";
import type { FiringDriver } from "./firing_driver.ts";
import type { FiringRecord } from "./firing_record.ts";
import type { RunnerAgent } from "./runner_file.ts";
import type { RunnerRoster } from "./runner_roster.ts";

const log = logger("runner");

/** Options for RunnerSchedules. */
export interface RunnerSchedulesOptions {
  paths: LinkPaths;
  roster: RunnerRoster;
  clock?: Clock;
  /** The door and way in unless told (a test's in-process driver). */
  driver?: FiringDriver;
  onStep?: (agentId: string, record: FiringRecord) => void;
}

/**
 * The schedules of a runner's agents (SCH-6: one runner fires them all), following its roster (PRC-7): an
 * agent put on starts firing its jobs, with its spec's catch-up window and hop cap; one taken off
 * fires nothing new (the roster refuses its firings) and its schedule ends once those under way
 * have; one put back meanwhile starts again after.
 */
export class RunnerSchedules implements AsyncDisposable {
  #o: RunnerSchedulesOptions;
  #ways = new Map<string, string>();
  #schedules = new Map<string, Promise<AgentSchedule | undefined>>();
  #driver: FiringDriver;

  constructor(options: RunnerSchedulesOptions) {
    this.#o = options;
    this.#driver = options.driver ?? doorDriver(options.paths, (id) => this.#ways.get(id));
  }

  /** Follows the roster's agents now. */
  follow(agents: readonly RunnerAgent[]): void {
    const listed = new Set(agents.map((a) => a.id));
    for (const agent of agents) this.#ways.set(agent.id, agent.way_in);
    for (const [id, schedule] of this.#schedules) {
      if (listed.has(id)) continue;
      this.#schedules.delete(id);
      void schedule.then((s) => s?.[Symbol.asyncDispose]());
    }
    for (const id of listed) {
      if (this.#schedules.has(id)) continue;
      this.#schedules.set(id, this.#start(id));
    }
  }

  async #start(id: string): Promise<AgentSchedule | undefined> {
    try {
      const settings = await loadSettings(this.#o.paths, id);
      const { spec } = await loadAgentConfig(this.#o.paths, settings);
      const scheduler = spec.tool.scheduler;
      return await AgentSchedule.start({
        agentId: id,
        schedule: layoutOf(this.#o.paths, settings).collection("schedule"),
        driver: this.#driver,
        clock: this.#o.clock ?? SYSTEM_CLOCK,
        catchUpMs: parseDuration(scheduler.catch_up),
        hops: scheduler.hops,
        begin: () => this.#o.roster.begin(id),
        onStep: this.#o.onStep && ((record) => this.#o.onStep!(id, record)),
      });
    } catch (err) {
      log.error("Cannot fire the agent's jobs: its settings or spec do not read", { agent: id, error: err });
      return undefined;
    }
  }

  /** Ends every schedule, each once its firings under way have finished. */
  async [Symbol.asyncDispose](): Promise<void> {
    const all = [...this.#schedules.values()];
    this.#schedules.clear();
    await Promise.all(all.map(async (s) => await (await s)?.[Symbol.asyncDispose]()));
  }
}
