import type { Clock, Logger } from "../../core/base/mod.ts";

/** The least time between two calls that change a chat's messages: about one a second (CON-13). */
export const EDIT_EVERY_MS = 1000;
/** The longest wait between tries of a final text the network would not take. */
const MAX_BACKOFF_MS = 30_000;

/**
 * What a failed post or edit means, as the platform says it: wait `retryAfterMs` (a 429), nothing
 * to change (Telegram's "message is not modified"), refused for good (trying again would be refused
 * again), or not reached (the network; the final text is tried again).
 */
export type SendFailure =
  | { kind: "rate-limited"; retryAfterMs: number }
  | { kind: "unchanged" }
  | { kind: "refused" }
  | { kind: "unreachable" };

/** How one platform posts and edits an answer's messages; the rest is the stream's. */
export interface AnswerStreamOptions<Id> {
  clock: Clock;
  signal: AbortSignal;
  /** The platform's logger, and a failure as a reason to log (token-free). */
  log: Logger;
  reason(err: unknown): string;
  /** The HTTP status the platform failed a call with, when it answered one, for the log. */
  status?(err: unknown): number | undefined;
  /** Splits a text at the platform's limit. */
  split(text: string): string[];
  /** Posts a new message; its id. */
  post(text: string): Promise<Id>;
  /** Edits message `id` to read `text`. */
  edit(id: Id, text: string): Promise<void>;
  failure(err: unknown): SendFailure;
  /** The messages this answer is already in (a restart finishing it in place). */
  sent?: readonly Id[];
  /** Keeps the messages sent so far, before the next is sent. */
  onSent(sent: readonly Id[]): Promise<void>;
}

/**
 * An answer shown as it is written, the same on every platform that edits in place (CON-13): its
 * first text is posted at once, then edited at most once a second (the clock decides), split at
 * the platform's limit into more messages. A rate limit waits its retry-after: the final text is
 * tried again, a text so far is given up for the newest; the final text is tried again after a
 * failure of the network too, so it always arrives.
 */
export class AnswerStream<Id> {
  #options: AnswerStreamOptions<Id>;
  #text = "";
  #sent: Id[];
  #shown: string[] = [];
  #nextAt = 0;
  #dirty = false;
  #flushing: Promise<void> | undefined;

  constructor(options: AnswerStreamOptions<Id>) {
    this.#options = options;
    this.#sent = [...(options.sent ?? [])];
  }

  /** The messages the answer is in so far. */
  get sent(): readonly Id[] {
    return this.#sent;
  }

  /** Adds a streamed piece; the chat sees it with the next edit. */
  push(piece: string): void {
    this.#text += piece;
    this.#dirty = true;
    this.#flushing ??= this.#flush().finally(() => this.#flushing = undefined);
  }

  /** Shows the whole answer (given, or as streamed), waiting out rate limits and failures. */
  async finish(text: string = this.#text): Promise<void> {
    this.#text = text;
    this.#dirty = false;
    await this.#flushing;
    await this.#render(text, true);
  }

  /**
   * Shows the text streamed so far, each time in its turn: the wait comes before the text is read,
   * so each edit shows the newest text rather than the text of a second before.
   */
  async #flush(): Promise<void> {
    const { signal, log } = this.#options;
    while (this.#dirty && !signal.aborted) {
      await this.#turn().catch(() => {});
      if (!this.#dirty || signal.aborted) break; // finished meanwhile: finish() shows it
      this.#dirty = false;
      await this.#render(this.#text, false).catch((err) => {
        if (this.#options.failure(err).kind === "rate-limited") {
          this.#dirty = true; // shown again after its retry-after, with the newest text
          return;
        }
        if (!signal.aborted) log.warn("Cannot show the answer so far", this.#failed(err));
      });
    }
  }

  /** Waits until a call that changes the chat may go: about one a second, longer after a 429. */
  #turn(): Promise<void> {
    const { clock, signal } = this.#options;
    const wait = this.#nextAt - clock.now();
    if (wait <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    return clock.sleep(wait, signal);
  }

  async #render(text: string, final: boolean): Promise<void> {
    if (!text.trim()) return;
    const { post, edit } = this.#options;
    for (const [i, part] of this.#options.split(text).entries()) {
      const id = this.#sent[i];
      if (i < this.#sent.length) {
        if (this.#shown[i] === part) continue;
        await this.#call(final, () => edit(id!, part));
      } else {
        const posted = await this.#call(final, () => post(part));
        if (posted === undefined) return;
        this.#sent.push(posted);
        await this.#options.onSent(this.#sent);
      }
      this.#shown[i] = part;
    }
  }

  /** A failed call as the log says it: the platform's status, when it answered one, and its words. */
  #failed(err: unknown): { status?: number; err: string } {
    const status = this.#options.status?.(err);
    return { ...(status === undefined ? {} : { status }), err: this.#options.reason(err) };
  }

  /** One call that changes the chat, in its turn; undefined when there was nothing to change. */
  async #call<T>(final: boolean, send: () => Promise<T>): Promise<T | undefined> {
    const { clock, signal, log } = this.#options;
    for (let attempt = 0;; attempt++) {
      await this.#turn();
      signal.throwIfAborted();
      try {
        const result = await send();
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        return result;
      } catch (err) {
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        const failure = this.#options.failure(err);
        if (failure.kind === "rate-limited") {
          this.#nextAt = clock.now() + Math.max(EDIT_EVERY_MS, failure.retryAfterMs);
          log.info("The platform asks to wait before the next change", {
            retryAfterMs: failure.retryAfterMs,
          });
          if (final) continue;
          throw err;
        }
        if (failure.kind === "unchanged") return undefined;
        if (!final || failure.kind === "refused") throw err;
        log.warn("Cannot send the answer, trying again", { ...this.#failed(err), attempt });
        this.#nextAt = clock.now() + Math.min(MAX_BACKOFF_MS, EDIT_EVERY_MS * 2 ** attempt);
      }
    }
  }
}
