import { type Clock, isLinkError, type LinkError } from "../../base/mod.ts";
import { providerError } from "./provider_error.ts";

/**
 * Settles with `work`, or rejects with `late()` once `ms` pass on the clock. `work` keeps
 * running: the caller aborts it.
 */
export async function beforeDeadline<T>(
  work: Promise<T>,
  clock: Clock,
  ms: number,
  late: () => LinkError,
): Promise<T> {
  if (ms <= 0) {
    work.catch(() => {});
    throw late();
  }
  const timer = new AbortController();
  const timeout = clock.sleep(ms, timer.signal).then(
    () => Promise.reject(late()),
    () => new Promise<never>(() => {}),
  );
  try {
    return await Promise.race([work, timeout]);
  } finally {
    timer.abort();
  }
}

/** Deadlines of one answer, in clock milliseconds. */
export interface BodyDeadlines {
  clock: Clock;
  /** The clock time by which the first byte must come. */
  firstByteBy: number;
  /** The first-byte deadline as configured, for the message. */
  timeoutMs: number;
  /** The longest silence between two pieces of the body. */
  stallMs: number;
}

/**
 * A response body read as text, piece by piece: the first piece before the first-byte
 * deadline, each later one within the stall deadline. A dropped connection is a cut-off answer.
 */
export class TimedBody {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #deadlines: BodyDeadlines;
  #first = true;
  #pushedBack = "";
  #ended = false;

  constructor(body: ReadableStream<Uint8Array>, deadlines: BodyDeadlines) {
    this.#reader = body.getReader();
    this.#deadlines = deadlines;
  }

  /** The next piece of text, or undefined at the end of the body. */
  async next(): Promise<string | undefined> {
    if (this.#pushedBack) {
      const text = this.#pushedBack;
      this.#pushedBack = "";
      return text;
    }
    if (this.#ended) return undefined;
    const { clock, firstByteBy, timeoutMs, stallMs } = this.#deadlines;
    const first = this.#first;
    const ms = first ? firstByteBy - clock.now() : stallMs;
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await beforeDeadline(
        this.#reader.read(),
        clock,
        ms,
        () =>
          first
            ? providerError({ kind: "timeout" }, { deadlineMs: timeoutMs })
            : providerError({ kind: "stalled" }, { deadlineMs: stallMs }),
      );
    } catch (err) {
      if (isLinkError(err)) throw err;
      throw providerError({
        kind: "cut_off",
        providerMessage: err instanceof Error ? err.message : String(err),
      });
    }
    if (result.done) {
      this.#ended = true;
      const rest = this.#decoder.decode();
      return rest || undefined;
    }
    this.#first = false;
    return this.#decoder.decode(result.value, { stream: true });
  }

  /** Gives text back, to be returned by the next `next()` (for sniffing a body's format). */
  pushBack(text: string): void {
    this.#pushedBack = text + this.#pushedBack;
  }

  /** Reads everything left, up to `limit` characters. */
  async text(limit: number): Promise<string> {
    let all = "";
    for (let piece = await this.next(); piece !== undefined; piece = await this.next()) {
      all += piece;
      if (all.length > limit) return all.slice(0, limit);
    }
    return all;
  }

  /** Stops reading and lets the connection go. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
