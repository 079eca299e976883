import { type Clock, type LinkPaths, parseDuration, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentSettings, layoutOf, loadAgentConfig, sendSocketPath } from "../agent/mod.ts";
import { doorDriver } from "./door_driver.ts";
import { runJob } from "./fire_job.ts";
import type { FiringDriver } from "./firing_driver.ts";
import { FiringRecords } from "./firing_record.ts";
import { JobStore } from "./job_store.ts";

/** What one pass over an agent's jobs did: the firings delivered, and when the next is due. */
export interface FiredDue {
  /** Firings that reached delivered (or dropped, skipped) in this pass. */
  fired: number;
  /** When the agent's next job is due (ms since the epoch), none when nothing ever will be. */
  next?: number;
}

/**
 * Fires every job of the agent that is due now, each through its door and way in as a runner
 * does (SCH-1, SCH-6), then returns: a firing a dead runner left is taken on first. It is what a
 * machine that wakes its agents itself (`[tool.scheduler] wake = "address"`, SCH-5) runs when the
 * time it was told comes, `lnk agent schedule run`; no runner sits on the agent meanwhile.
 */
export async function fireDueJobs(
  paths: LinkPaths,
  agent: AgentSettings,
  options: { clock?: Clock; driver?: FiringDriver } = {},
): Promise<FiredDue> {
  const { spec } = await loadAgentConfig(paths, agent);
  const schedule = layoutOf(paths, agent).collection("schedule");
  const jobs = new JobStore(schedule);
  const records = new FiringRecords(schedule);
  const way = sendSocketPath(paths, agent.id);
  let fired = 0;
  const ctx = {
    agentId: agent.id,
    jobs,
    records,
    driver: options.driver ?? doorDriver(paths, (id) => id === agent.id ? way : undefined),
    clock: options.clock ?? SYSTEM_CLOCK,
    catchUpMs: parseDuration(spec.tool.scheduler.catch_up),
    hops: spec.tool.scheduler.hops,
    onStep: (record: { state: string }) => {
      if (record.state !== "taken" && record.state !== "answered") fired++;
    },
  };
  const ids = new Set([
    ...(await jobs.list()).jobs.map((j) => j.id),
    ...(await records.all()).records.filter((r) => r.state === "taken" || r.state === "answered")
      .map((r) => r.job.id),
  ]);
  let next: number | undefined;
  for (const id of [...ids].sort()) {
    const due = await runJob(id, ctx);
    if (due !== undefined && (next === undefined || due < next)) next = due;
  }
  return { fired, ...(next === undefined ? {} : { next }) };
}
