import { type JobWhen, nextDue } from "./job.ts";

/** What a job's next firing is, seen at `now`. */
export type DueToFire =
  /** Nothing until `due` (in the future). */
  | { kind: "wait"; due: number }
  /**
   * Fire for `due` now. `missedFrom`: the first of the dues before it that are not fired (missed
   * while the runner was down, by more than the window or before a later one).
   */
  | { kind: "fire"; due: number; missedFrom?: number }
  /** Every due since the last, the first `missedFrom`, was missed by more than the window. */
  | { kind: "skip"; missedFrom: number }
  /** It will never be due again. */
  | { kind: "done" };

/**
 * Which due of a job fires at `now`, `last` being the due of its last firing (or the instant
 * before its first could be): the next due when it has come; of several missed while the runner
 * was down, the latest within `catchUpMs` of now, once; none when all are older than that.
 */
export function dueToFire(when: JobWhen, last: number, now: number, catchUpMs: number): DueToFire {
  const first = nextDue(when, last);
  if (first === undefined) return { kind: "done" };
  if (first > now) return { kind: "wait", due: first };
  // The dues in the window, from its start: those before it are missed, never walked one by one.
  let due: number | undefined = now - first > catchUpMs ? nextDue(when, now - catchUpMs - 1) : first;
  if (due === undefined || due > now) return { kind: "skip", missedFrom: first };
  let latest = due;
  while ((due = nextDue(when, due)) !== undefined && due <= now) latest = due;
  return latest === first ? { kind: "fire", due: latest } : { kind: "fire", due: latest, missedFrom: first };
}

/** The instant before a job's first due: its `at` less one, or its making for a cron job. */
export function beforeFirstDue(job: { created: string; when: JobWhen }): number {
  return job.when.kind === "at" ? Date.parse(job.when.at) - 1 : Date.parse(job.created);
}
