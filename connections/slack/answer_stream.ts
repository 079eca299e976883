import type { WebClient } from "@slack/web-api";
import { type Clock, logger } from "../../core/base/mod.ts";
import { splitAnswer } from "../chat/mod.ts";
import { reasonOf, type SlackAccount, slackErrorOf } from "./slack_account.ts";

const log = logger("slack");

/** The longest message Link posts to Slack, in characters: past it an answer is split (CON-13). */
export const SLACK_LIMIT = 4000;
/** The least time between two calls that change the channel's messages: about one a second (CON-13). */
export const EDIT_EVERY_MS = 1000;
/** The longest wait between tries of a final text the network would not take. */
const MAX_BACKOFF_MS = 30_000;

/** Where an answer streams to, and what it was posted in so far. */
export interface SlackAnswerStreamOptions {
  web: WebClient;
  account: SlackAccount;
  channel: string;
  /** The thread to post in (`thread_ts`); none posts at the channel's top level. */
  threadTs?: string;
  clock: Clock;
  signal: AbortSignal;
  /** The messages (`ts`) this answer is already in (a restart finishing it in place). */
  sent?: readonly string[];
  /** Keeps the messages posted so far, before the next is posted. */
  onSent(sent: readonly string[]): Promise<void>;
}

/**
 * An answer shown as it is written: its first text posted at once, then chat.update'd in place at
 * most once a second (the clock decides), split past 4,000 characters into more messages. A 429
 * waits its Retry-After; the final text always arrives.
 */
export class SlackAnswerStream {
  #options: SlackAnswerStreamOptions;
  #text = "";
  #sent: string[];
  #shown: string[] = [];
  #nextAt = 0;
  #dirty = false;
  #flushing: Promise<void> | undefined;

  constructor(options: SlackAnswerStreamOptions) {
    this.#options = options;
    this.#sent = [...(options.sent ?? [])];
  }

  /** The messages the answer is in so far. */
  get sent(): readonly string[] {
    return this.#sent;
  }

  /** Adds a streamed piece; the channel sees it with the next update. */
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

  async #flush(): Promise<void> {
    while (this.#dirty && !this.#options.signal.aborted) {
      this.#dirty = false;
      await this.#render(this.#text, false).catch((err) => {
        if (!this.#options.signal.aborted) {
          log.warn("Cannot show the answer so far", { err: reasonOf(this.#options.account, err) });
        }
      });
    }
  }

  async #render(text: string, final: boolean): Promise<void> {
    if (!text.trim()) return;
    const { web, channel, threadTs } = this.#options;
    for (const [i, part] of splitAnswer(text, SLACK_LIMIT).entries()) {
      const ts = this.#sent[i];
      if (ts !== undefined) {
        if (this.#shown[i] === part) continue;
        await this.#call(final, () => web.chat.update({ channel, ts, text: part }));
      } else {
        const posted = await this.#call(
          final,
          () => web.chat.postMessage({ channel, text: part, ...(threadTs ? { thread_ts: threadTs } : {}) }),
        );
        if (typeof posted?.ts !== "string") throw new Error("chat.postMessage answered no ts");
        this.#sent.push(posted.ts);
        await this.#options.onSent(this.#sent);
      }
      this.#shown[i] = part;
    }
  }

  /** One call that changes the channel, in its turn: 429s waited out; for the final text, failures retried. */
  async #call<T>(final: boolean, send: () => Promise<T>): Promise<T> {
    const { clock, signal } = this.#options;
    for (let attempt = 0;; attempt++) {
      if (this.#sent.length > 0 || attempt > 0) {
        await clock.sleep(Math.max(0, this.#nextAt - clock.now()), signal);
      }
      signal.throwIfAborted();
      try {
        const result = await send();
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        return result;
      } catch (err) {
        this.#nextAt = clock.now() + EDIT_EVERY_MS;
        const { error, retryAfterMs } = slackErrorOf(err);
        if (retryAfterMs !== undefined) {
          log.info("Slack asked to wait before the next message", { retryAfterMs });
          this.#nextAt = clock.now() + Math.max(EDIT_EVERY_MS, retryAfterMs);
          continue;
        }
        if (!final || error !== undefined) throw err;
        log.warn("Cannot post the answer, trying again", {
          err: reasonOf(this.#options.account, err),
          attempt,
        });
        this.#nextAt = clock.now() + Math.min(MAX_BACKOFF_MS, EDIT_EVERY_MS * 2 ** attempt);
      }
    }
  }
}
