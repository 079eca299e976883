import { isLapsed } from "../store/lease_rules.ts";
import { conversationState } from "./conversation_state.ts";
import type { EventLog } from "./event_log.ts";
import { holderGone } from "./holder_marks.ts";
import { sameHolder, thisHolder } from "./lease_holder.ts";
import type { LeaseKeeper } from "./lease_keeper.ts";
import type { TurnAgent } from "./turn_agent.ts";

/** What watching a conversation's lease needs from the agent's turns. */
export interface WatchLeaseOptions {
  agent: TurnAgent;
  events: EventLog;
  /** Whether this process runs a turn of the conversation now (it looks again after it lets go). */
  runningHere(): boolean;
  take(): Promise<LeaseKeeper | undefined>;
  /** Runs the conversation under the lease taken, its answers kept for `/_link/recover`. */
  run(keeper: LeaseKeeper): Promise<void>;
  signal: AbortSignal;
}

/**
 * Makes sure someone answers a conversation whose lease another holds: sleeps while the holder
 * renews, and takes the turn once the holder let go with work left, or died (TRN-4, TRN-7). A
 * lease this process holds needs no watch: its turn looks again after it lets go (TRN-10).
 */
export async function watchLease(options: WatchLeaseOptions): Promise<void> {
  const { agent, events, signal } = options;
  const { store, clock, turns } = agent;
  while (!signal.aborted) {
    if (options.runningHere()) return;
    const lease = await store.leaseRead(events.conversation);
    const now = clock.now();
    const live = lease && !isLapsed(lease, { nowMs: now, lapseMs: turns.lapseMs }) &&
      !(await holderGone(lease.holder, agent.holders));
    if (live && sameHolder(lease.holder, thisHolder())) return;
    if (live) {
      await clock.sleep(Math.max(1, lease.renewed_at_ms + turns.lapseMs - now), signal);
      continue;
    }
    await events.refresh();
    const state = conversationState(events.events);
    if (!lease && !state.pending.length && !state.openTurn) return;
    const keeper = await options.take();
    if (keeper) return await options.run(keeper);
  }
}
