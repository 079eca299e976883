import type { Clock } from "../base/mod.ts";
import type { FiringDriver } from "./firing_driver.ts";
import type { FiringRecord, FiringRecords } from "./firing_record.ts";
import type { JobStore } from "./job_store.ts";

/** What firing one agent's jobs needs: its files, its driver, its clock and its spec's caps. */
export interface FiringContext {
  /** The agent whose schedule this is (its way in sends the answers). */
  agentId: string;
  jobs: JobStore;
  records: FiringRecords;
  driver: FiringDriver;
  clock: Clock;
  /** `[tool.scheduler] catch_up`: how late a missed due is still fired. */
  catchUpMs: number;
  /** `[tool.scheduler] hops`: an answer past it is not made (SCH-10). */
  hops: number;
  /** The runner stopping: waits end (a firing under way is left where its record says). */
  signal?: AbortSignal;
  /** A firing begins (the roster's seam, PRC-7): its end, or undefined when none may begin now. */
  begin?: () => (() => void) | undefined;
  /** Each step a firing moved to, once kept (tests and the bench wait on it). */
  onStep?: (record: FiringRecord) => void;
}

/** Moves a firing on to its next state, kept before anything else is done, and tells `onStep`. */
export async function stepFiring(
  ctx: FiringContext,
  record: FiringRecord,
  next: Partial<FiringRecord> & { state: FiringRecord["state"] },
): Promise<FiringRecord> {
  const moved = await ctx.records.move(record, { ...next, at: ctx.clock.now() });
  ctx.onStep?.(moved);
  return moved;
}
