import type { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { type Clock, logger } from "../../core/base/mod.ts";
import { AnswerStream, EDIT_EVERY_MS, splitAnswer } from "../chat/mod.ts";
import { type DiscordAccount, reasonOf, statusOf } from "./discord_account.ts";

const log = logger("discord");

/** The longest message Link sends to Discord, in characters: past it an answer is split (CON-13). */
export const DISCORD_LIMIT = 2000;
export { EDIT_EVERY_MS };

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
  /**
   * What the answer answers (the message's snowflake): each part is posted with the nonce
   * `<it>-<part>` and `enforce_nonce`, so a part posted again after a kill -9 that fell between
   * Discord taking it and its id being kept is the message Discord made the first time, not a
   * second one. Discord keeps a nonce for a few minutes.
   */
  nonceOf?: string;
}

/**
 * An answer shown as it is written (connections/chat's stream): posted, then PATCHed in place about
 * once a second, split past 2,000 characters. The REST client waits out Discord's rate limits (a
 * 429's Retry-After included); a 4xx is not tried again, a 5xx or the network is, for the final text.
 */
export class DiscordAnswerStream extends AnswerStream<string> {
  constructor(options: DiscordAnswerStreamOptions) {
    const { rest, account, channelId, nonceOf } = options;
    let part = options.sent?.length ?? 0;
    // Discord takes a nonce of at most 25 characters: a part past what fits goes without one.
    const nonce = () => {
      const made = `${nonceOf}-${part}`;
      return nonceOf === undefined || made.length > 25 ? {} : { nonce: made, enforce_nonce: true };
    };
    super({
      ...options,
      log,
      reason: (err) => reasonOf(account, err),
      status: statusOf,
      split: (text) => splitAnswer(text, DISCORD_LIMIT),
      post: async (content) => {
        const posted = await rest.post(Routes.channelMessages(channelId), { body: { content, ...nonce() } });
        part++;
        return Posted.parse(posted).id;
      },
      edit: async (id, content) =>
        void await rest.patch(Routes.channelMessage(channelId, id), { body: { content } }),
      failure(err) {
        const status = statusOf(err);
        return status !== undefined && status < 500 ? { kind: "refused" } : { kind: "unreachable" };
      },
    });
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
