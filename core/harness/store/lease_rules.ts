import { LinkError } from "../../base/mod.ts";
import type { Lease } from "./contract.ts";

/** How a taker judges a lease: the lapse from the agent's settings and the time now, both in ms. */
export interface LeaseJudgement {
  lapseMs: number;
  nowMs: number;
}

/**
 * Whether a lease belongs to a dead process (TRN-2): not renewed for `lapseMs`, judged to the
 * millisecond. Renewed 59,999 ms ago with a lapse of 60,000 is live; 60,000 ms ago is lapsed. The
 * lapse comes from the caller only: any field in the lease itself is never read (TRN-3).
 */
export function isLapsed(lease: Lease, judgement: LeaseJudgement): boolean {
  return judgement.nowMs - lease.renewed_at_ms >= judgement.lapseMs;
}

/** Whether `current` may be taken: nobody holds it, or its holder lapsed (TRN-7). */
export function mayTake(current: Lease | undefined, judgement: LeaseJudgement): boolean {
  return current === undefined || isLapsed(current, judgement);
}

/** Whether two leases are the same holding: the same holder on the same turn. */
export function sameHolding(a: Lease, b: Lease): boolean {
  return a.turn === b.turn && a.holder.boot === b.holder.boot && a.holder.pid === b.holder.pid &&
    a.holder.start === b.holder.start;
}

/** Throws USAGE unless the lapse and the time are usable numbers of milliseconds. */
export function checkJudgement(judgement: LeaseJudgement): void {
  if (!Number.isFinite(judgement.lapseMs) || judgement.lapseMs <= 0) {
    throw new LinkError(
      "USAGE",
      `Cannot judge a lease: the lapse "${judgement.lapseMs}" is not a positive number of ms`,
    );
  }
  checkTime(judgement.nowMs);
}

/** Throws USAGE unless `nowMs` is a finite number of milliseconds. */
export function checkTime(nowMs: number): void {
  if (!Number.isFinite(nowMs)) {
    throw new LinkError("USAGE", `Cannot judge a lease: the time "${nowMs}" is not a number of ms`);
  }
}
