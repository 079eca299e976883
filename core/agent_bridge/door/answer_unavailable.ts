import { type Clock, isLinkError, logger, writeAll } from "../../base/mod.ts";

const log = logger("door");

/** How long the door keeps reading a caller it answered 503, so the answer is not lost to a reset. */
const DRAIN_MS = 5_000;

/**
 * Answers a caller the agent could not be woken for: HTTP 503 with the reason, then a lingering
 * close. The answer waits for the caller's request head (or a hang-up, or the drain's deadline):
 * an HTTP client that gets a response before it has sent its request takes it for garbage.
 * `first` is a read of the caller's begun already.
 */
export async function answerUnavailable(
  conn: Deno.Conn,
  err: unknown,
  clock: Clock,
  first?: Promise<Uint8Array | null>,
): Promise<void> {
  const reason = isLinkError(err) ? err.message : "Cannot wake the agent: starting it failed";
  log.warn("Door cannot reach the agent", { err });
  if (!(await awaitRequestHead(conn, clock, first))) return;
  const body = new TextEncoder().encode(`${reason}\n`);
  const head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
    `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  await writeAll(conn, new TextEncoder().encode(head));
  await writeAll(conn, body);
  await conn.closeWrite().catch(() => {});
  await drain(conn, clock);
}

/** Reads until the end of a request head; false when the caller hung up or the deadline came first. */
async function awaitRequestHead(
  conn: Deno.Conn,
  clock: Clock,
  first?: Promise<Uint8Array | null>,
): Promise<boolean> {
  const done = new AbortController();
  let late = false;
  const deadline = clock.sleep(DRAIN_MS, done.signal).then(() => {
    late = true;
    try {
      conn.close();
    } catch {
      // already closed
    }
  }, () => {});
  const buf = new Uint8Array(16 * 1024);
  let seen = "";
  try {
    for (let pending = first; !seen.includes("\r\n\r\n"); pending = undefined) {
      const bytes = pending
        ? await pending
        : await conn.read(buf).then((n) => (n === null ? null : buf.subarray(0, n)), () => null);
      if (bytes === null) return false;
      // Only the last bytes matter: where the head ends.
      seen = (seen + new TextDecoder().decode(bytes)).slice(-4096);
    }
    return !late;
  } finally {
    done.abort();
    await deadline;
  }
}

/** Reads what the caller still sends until it hangs up, for a while, so the 503 reaches it. */
async function drain(conn: Deno.Conn, clock: Clock): Promise<void> {
  const done = new AbortController();
  const hangUp = () => {
    try {
      conn.close();
    } catch {
      // already closed
    }
  };
  const deadline = clock.sleep(DRAIN_MS, done.signal).then(hangUp, () => {});
  const buf = new Uint8Array(16 * 1024);
  try {
    while ((await conn.read(buf).catch(() => null)) !== null) { /* discard */ }
  } finally {
    done.abort();
    await deadline;
  }
}
