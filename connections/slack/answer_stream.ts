import type { WebClient } from "@slack/web-api";
import { type Clock, logger } from "../../core/base/mod.ts";
import { AnswerStream, EDIT_EVERY_MS, splitAnswer } from "../chat/mod.ts";
import { reasonOf, type SlackAccount, slackErrorOf } from "./slack_account.ts";

const log = logger("slack");

/** The longest message Link posts to Slack, in characters: past it an answer is split (CON-13). */
export const SLACK_LIMIT = 4000;
export { EDIT_EVERY_MS };

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
 * An answer shown as it is written (connections/chat's stream): posted, then chat.update'd in
 * place about once a second, split past 4,000 characters. A 429 waits its Retry-After; an error
 * Slack names (`channel_not_found`, ...) is not tried again.
 */
export class SlackAnswerStream extends AnswerStream<string> {
  constructor(options: SlackAnswerStreamOptions) {
    const { web, account, channel, threadTs } = options;
    super({
      ...options,
      log,
      reason: (err) => reasonOf(account, err),
      split: (text) => splitAnswer(text, SLACK_LIMIT),
      async post(text) {
        const posted = await web.chat.postMessage({
          channel,
          text,
          ...(threadTs ? { thread_ts: threadTs } : {}),
        });
        if (typeof posted.ts !== "string") throw new Error("chat.postMessage answered no ts");
        return posted.ts;
      },
      edit: async (ts, text) => void await web.chat.update({ channel, ts, text }),
      failure(err) {
        const { error, retryAfterMs } = slackErrorOf(err);
        if (retryAfterMs !== undefined) return { kind: "rate-limited", retryAfterMs };
        return error !== undefined ? { kind: "refused" } : { kind: "unreachable" };
      },
    });
  }
}
