import type { Clock } from "../core/base/mod.ts";
import { type ConnReader, readRequestHead, type RequestHead } from "../http1/mod.ts";

/** How long a head may take from its first byte to its blank line: a slow-drip head is cut then. */
export const HEAD_DEADLINE_MS = 10_000;
/** How long a connection may wait with no byte of its next head (new, or kept alive between requests). */
export const IDLE_DEADLINE_MS = 60_000;

/** The deadlines of one head: for its first byte, and from there to its end. */
export interface HeadDeadlines {
  idleMs: number;
  headMs: number;
}

/**
 * The next request head within its deadlines: the head, null when the caller ended, "idle" when no
 * byte came in time (a kept-alive connection is let go), "late" when the head began and did not
 * end in time. Once "idle" or "late", the read still pending is the caller's to end by closing.
 */
export async function readHeadInTime(
  reader: ConnReader,
  clock: Clock,
  deadlines: HeadDeadlines,
): Promise<RequestHead | null | "idle" | "late"> {
  const done = new AbortController();
  const idle = new AbortController();
  const expired = Promise.withResolvers<"idle" | "late">();
  let begun = false;
  const expire = (ms: number, signal: AbortSignal, why: "idle" | "late") =>
    void clock.sleep(ms, signal).then(() => expired.resolve(why), () => {});
  expire(deadlines.idleMs, AbortSignal.any([idle.signal, done.signal]), "idle");
  const started = () => {
    if (begun) return;
    begun = true;
    idle.abort();
    expire(deadlines.headMs, done.signal, "late");
  };
  const head = readRequestHead(reader, { started });
  head.catch(() => {});
  try {
    return await Promise.race([head, expired.promise]);
  } finally {
    done.abort();
  }
}
