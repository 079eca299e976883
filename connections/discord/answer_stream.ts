import type { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { type Clock, logger } from "../../core/base/mod.ts";
import { splitAnswer } from "../chat/mod.ts";
import { type DiscordAccount, reasonOf, statusOf } from "./discord_account.ts";

const log = logger("discord");

/** The longest message Link sends to Discord, in characters: past it an answer is split (CON-13). */
export const DISCORD_LIMIT = 2000;
/** The least time between two calls that change the channel's messages: about one a second (CON-13). */
export const EDIT_EVERY_MS = 1000;
/** The longest wait between tries of a final text the network would not take. */
const MAX_BACKOFF_MS = 30_000;

const Posted = z.looseObject({ id: z.string() });

/** Where an answer streams to, and what it was sent in so far. */
export interface DiscordAnswerStreamOptions {
  rest: REST;
  account: DiscordAccount;
  channelId: string;
  clock: Clock;
  signal: AbortSignal;
  /** The messages (ids) this answer is already in (a restart finishing it in place). */
  sent?: readonly string[];
  /** Keeps the messages sent so far, before the next is sent. */
  onSent(sent: readonly string[]): Promise<void>;
}

/**
 * An answer shown as it is written: its first text posted at once, then PATCHed in place at most
 * once a second (the clock decides), split past 2,000 characters into more messages. The REST
 * client waits out Discord's rate limits (a 429's Retry-After included); the final text is tried
 * again after a failure of the network, so it always arrives.
 */
export class DiscordAnswerStream {
  #options: DiscordAnswerStreamOptions;
  #text = "";
  #sent: string[];
  #shown: string[] = [];
  #nextAt = 0;
  #dirty = false;
  #flushing: Promise<void> | undefined;

  constructor(options: DiscordAnswerStreamOptions) {
    this.#options = options;
    this.#sent = [...(options.sent ?? [])];
  }

  /** Adds a streamed piece; the channel sees it with the next edit. */
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

  /** Shows the text so far, each time in its turn: the wait comes first, so each edit shows the newest text. */
  async #flush(): Promise<void> {
    const { signal } = this.#options;
    while (this.#dirty && !signal.aborted) {
      await this.#turn().catch(() => {});
      if (!this.#dirty || signal.aborted) break; // finished meanwhile: finish() shows it
      this.#dirty = false;
      await this.#render(this.#text, false).catch((err) => {
        if (!signal.aborted) {
          log.warn("Cannot show the answer so far", { err: reasonOf(this.#options.account, err) });
        }
      });
    }
  }

  #turn(): Promise<void> {
    const { clock, signal } = this.#options;
    const wait = this.#nextAt - clock.now();
    if (wait <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    return clock.sleep(wait, signal);
  }

  async #render(text: string, final: boolean): Promise<void> {
    if (!text.trim()) return;
    const { rest, channelId } = this.#options;
    for (const [i, part] of splitAnswer(text, DISCORD_LIMIT).entries()) {
      const id = this.#sent[i];
      if (id !== undefined) {
        if (this.#shown[i] === part) continue;
        await this.#call(
          final,
          () => rest.patch(Routes.channelMessage(channelId, id), { body: { content: part } }),
        );
      } else {
        const posted = Posted.parse(
          await this.#call(
            final,
            () => rest.post(Routes.channelMessages(channelId), { body: { content: part } }),
          ),
        );
        this.#sent.push(posted.id);
        await this.#options.onSent(this.#sent);
      }
      this.#shown[i] = part;
    }
  }

  /** One call that changes the channel, in its turn; for the final text, failures of the network retried. */
  async #call(final: boolean, send: () => Promise<unknown>): Promise<unknown> {
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
        const status = statusOf(err);
        if (!final || (status !== undefined && status < 500)) throw err;
        log.warn("Cannot send the answer, trying again", {
          err: reasonOf(this.#options.account, err),
          attempt,
        });
        this.#nextAt = clock.now() + Math.min(MAX_BACKOFF_MS, EDIT_EVERY_MS * 2 ** attempt);
      }
    }
  }
}

/** How often Discord's typing is posted again: it shows for about ten seconds. */
export const TYPING_EVERY_MS = 8000;

/** Shows typing in the channel until `signal` aborts. */
export async function keepTyping(
  options: { rest: REST; account: DiscordAccount; channelId: string; clock: Clock; signal: AbortSignal },
): Promise<void> {
  while (!options.signal.aborted) {
    await options.rest.post(Routes.channelTyping(options.channelId)).catch((err) => {
      log.debug("Cannot show typing", { err: reasonOf(options.account, err) });
    });
    await options.clock.sleep(TYPING_EVERY_MS, options.signal).catch(() => {});
  }
}
