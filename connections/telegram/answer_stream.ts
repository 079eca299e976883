import { type Api, GrammyError } from "grammy";
import { type Clock, logger } from "../../core/base/mod.ts";
import { splitAnswer } from "./split_answer.ts";
import { reasonOf, type TelegramAccount } from "./telegram_account.ts";

const log = logger("telegram");

/** The least time between two calls that change the chat's messages: about one a second (CON-13). */
export const EDIT_EVERY_MS = 1000;
/** The longest wait between tries of a final text the network would not take. */
const MAX_BACKOFF_MS = 30_000;

/** Where an answer streams to, and what it was sent in so far. */
export interface AnswerStreamOptions {
  api: Api;
  account: TelegramAccount;
  chatId: number;
  clock: Clock;
  signal: AbortSignal;
  /** The messages this answer is already in (a restart finishing it in place). */
  sent?: readonly number[];
  /** Keeps the messages sent so far, before the next is sent. */
  onSent(sent: readonly number[]): Promise<void>;
}

/**
 * An answer shown as it is written: its first text is sent at once, then edited in place at most
 * once a second (the clock decides), split past Telegram's limit into more messages. A 429 waits
 * its `retry_after`; "message is not modified" is no failure; the final text always arrives.
 */
export class AnswerStream {
  #options: AnswerStreamOptions;
  #text = "";
  #sent: number[];
  #shown: string[] = [];
  #nextAt = 0;
  #dirty = false;
  #flushing: Promise<void> | undefined;

  constructor(options: AnswerStreamOptions) {
    this.#options = options;
    this.#sent = [...(options.sent ?? [])];
  }

  /** The messages the answer is in so far. */
  get sent(): readonly number[] {
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
    const { signal } = this.#options;
    while (this.#dirty && !signal.aborted) {
      await this.#turn().catch(() => {});
      if (!this.#dirty || signal.aborted) break; // finished meanwhile: finish() shows it
      this.#dirty = false;
      await this.#render(this.#text, false).catch((err) => {
        if (isRateLimited(err)) {
          this.#dirty = true; // shown again after retry_after, with the newest text
          return;
        }
        if (!signal.aborted) log.warn("Cannot show the answer so far", { err: this.#reason(err) });
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
    const { api, chatId } = this.#options;
    for (const [i, part] of splitAnswer(text).entries()) {
      if (i < this.#sent.length) {
        if (this.#shown[i] === part) continue;
        await this.#call(final, () => api.editMessageText(chatId, this.#sent[i]!, part));
      } else {
        const message = await this.#call(final, () => api.sendMessage(chatId, part));
        if (message === undefined) return;
        this.#sent.push(message.message_id);
        await this.#options.onSent(this.#sent);
      }
      this.#shown[i] = part;
    }
  }

  /**
   * One call that changes the chat, in its turn. A 429 waits its retry_after: the final text is
   * tried again, a text so far is given up for a newer one. For the final text, failures of the
   * network are retried; "message is not modified" is no failure.
   */
  async #call<T>(final: boolean, send: () => Promise<T>): Promise<T | undefined> {
    const { clock, signal } = this.#options;
    for (let attempt = 0;; attempt++) {
      await this.#turn();
      signal.throwIfAborted();
      try {
        const result = await send();
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        return result;
      } catch (err) {
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        if (isRateLimited(err)) {
          this.#nextAt = clock.now() + (err.parameters.retry_after ?? 1) * 1000;
          log.info("Telegram asks to wait before the next change", {
            retryAfter: err.parameters.retry_after,
          });
          if (final) continue;
          throw err;
        }
        if (err instanceof GrammyError && /message is not modified/i.test(err.description)) return undefined;
        if (!final || err instanceof GrammyError) throw err;
        log.warn("Cannot send the answer, trying again", { err: this.#reason(err), attempt });
        this.#nextAt = clock.now() + Math.min(MAX_BACKOFF_MS, EDIT_EVERY_MS * 2 ** attempt);
      }
    }
  }

  #reason(err: unknown): string {
    return reasonOf(this.#options.account, err);
  }
}

function isRateLimited(err: unknown): err is GrammyError {
  return err instanceof GrammyError && err.error_code === 429;
}

/** How often Telegram's "typing" is sent again: it shows for five seconds. */
export const TYPING_EVERY_MS = 4000;

/** Shows "typing" in the chat until `signal` aborts. */
export async function keepTyping(
  options: { api: Api; account: TelegramAccount; chatId: number; clock: Clock; signal: AbortSignal },
): Promise<void> {
  while (!options.signal.aborted) {
    await options.api.sendChatAction(options.chatId, "typing").catch((err) => {
      log.debug("Cannot show typing", { err: reasonOf(options.account, err) });
    });
    await options.clock.sleep(TYPING_EVERY_MS, options.signal).catch(() => {});
  }
}
