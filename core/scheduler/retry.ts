import { type Clock, isLinkError, logger } from "../base/mod.ts";

const log = logger("runner");

/** The first wait after a failure; each next doubles, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 5 * 60_000;

/** Thrown when what was tried cannot succeed however often it is tried again (an agent removed). */
export class Gone extends Error {
  override name = "Gone";
}

/**
 * Runs `step` until it succeeds, waiting longer after each failure (1 s, 2 s, … 5 min), each
 * failure logged. An agent that was removed (AGENT_NOT_FOUND) is not retried: `Gone` is thrown.
 * The wait ends with the signal (the runner stopping), the firing left where its record says.
 */
export async function withRetry<T>(
  step: () => Promise<T>,
  options: {
    clock: Clock;
    signal?: AbortSignal;
    what: string;
    fields: Record<string, unknown>;
    /** Errors the caller handles itself: thrown at once, not tried again here. */
    passOn?: (err: unknown) => boolean;
  },
): Promise<T> {
  let wait = RETRY_FIRST_MS;
  for (let attempt = 1;; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (isLinkError(err, "AGENT_NOT_FOUND")) throw new Gone((err as Error).message, { cause: err });
      if (options.passOn?.(err)) throw err;
      log.warn(`Cannot ${options.what}: it is tried again`, {
        ...options.fields,
        attempt,
        retry_in_ms: wait,
        error: err,
      });
    }
    await options.clock.sleep(wait, options.signal);
    wait = Math.min(wait * 2, RETRY_MAX_MS);
  }
}
