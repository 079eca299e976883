import type { Clock } from "./clock.ts";
import { SYSTEM_CLOCK } from "./clock.ts";
import { LinkError } from "./errors.ts";
import { logger } from "./log.ts";

const log = logger("accept");

/** The first wait after a failed accept, and the longest, doubling in between. */
const BACKOFF_FIRST_MS = 10;
const BACKOFF_MAX_MS = 1_000;

/** How a server keeps accepting. */
export interface KeepAcceptingOptions<C> {
  /** The server's name, in logs and in the error when its listener is gone: "door", "proxy". */
  name: string;
  /**
   * Takes one accepted connection. A promise it returns holds the connection's admission (finding
   * who called, say): while `maxAdmitting` are pending, no more is accepted, and the kernel's
   * queue holds the rest, so a flood never holds more descriptors than that before it is judged.
   */
  onConn(conn: C): void | Promise<void>;
  /** Admissions pending at once (default 256). */
  maxAdmitting?: number;
  /** Time for the waits after a failed accept; tests drive it. */
  clock?: Clock;
  /** Stops accepting: the caller closes the listener too. */
  signal: AbortSignal;
}

/**
 * Accepts connections until `signal` aborts. A failed accept (EMFILE, ENFILE, ENOBUFS, a
 * connection reset before it was taken) never ends it: it waits a moment, longer at each failure
 * in a row (never a busy loop), and accepts again. Resolves once stopped; rejects only when the
 * listener is gone while not stopping, so its owner can end rather than look alive with no door.
 */
export async function keepAccepting<C>(
  listener: { accept(): Promise<C> },
  options: KeepAcceptingOptions<C>,
): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const maxAdmitting = options.maxAdmitting ?? 256;
  const admitting = new Set<Promise<void>>();
  let failures = 0;
  const stopped = () => options.signal.aborted;
  while (!stopped()) {
    if (admitting.size >= maxAdmitting) {
      await Promise.race(admitting);
      continue;
    }
    let conn: C;
    try {
      conn = await listener.accept();
    } catch (err) {
      if (stopped()) return;
      if (err instanceof Deno.errors.BadResource) {
        throw new LinkError(
          "SERVICE_FAILED",
          `Cannot accept connections on the ${options.name}: its listener closed`,
          {
            cause: err,
          },
        );
      }
      failures++;
      const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(failures - 1, 10));
      if (failures === 1 || wait === BACKOFF_MAX_MS && failures % 30 === 0) {
        log.warn("Cannot accept a connection, waiting before the next", {
          server: options.name,
          failures,
          wait_ms: wait,
          err,
        });
      }
      await clock.sleep(wait, options.signal).catch(() => {});
      continue;
    }
    if (failures > 0) log.info("Accepting again", { server: options.name, failures });
    failures = 0;
    admit(admitting, options.onConn(conn));
  }
}

function admit(admitting: Set<Promise<void>>, admission: void | Promise<void>): void {
  if (!admission) return;
  const held: Promise<void> = admission.catch(() => {}).finally(() => admitting.delete(held));
  admitting.add(held);
}
