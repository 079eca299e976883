import { type Api, GrammyError } from "grammy";
import { type Clock, logger } from "../../core/base/mod.ts";
import { AnswerStream as ChatAnswerStream, EDIT_EVERY_MS, type SendFailure } from "../chat/mod.ts";
import { splitAnswer } from "./split_answer.ts";
import { reasonOf, type TelegramAccount } from "./telegram_account.ts";

const log = logger("telegram");

export { EDIT_EVERY_MS };

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
 * An answer shown as it is written (connections/chat's stream): sent, then edited in place about
 * once a second, split past Telegram's limit. A 429 waits its `retry_after`; "message is not
 * modified" is no failure; another error Telegram answers is not tried again.
 */
export class AnswerStream extends ChatAnswerStream<number> {
  constructor(options: AnswerStreamOptions) {
    const { api, account, chatId } = options;
    super({
      ...options,
      log,
      reason: (err) => reasonOf(account, err),
      split: (text) => splitAnswer(text),
      post: async (text) => (await api.sendMessage(chatId, text)).message_id,
      edit: async (id, text) => void await api.editMessageText(chatId, id, text),
      failure: failureOf,
    });
  }
}

function failureOf(err: unknown): SendFailure {
  if (!(err instanceof GrammyError)) return { kind: "unreachable" };
  if (err.error_code === 429) {
    return { kind: "rate-limited", retryAfterMs: (err.parameters.retry_after ?? 1) * 1000 };
  }
  if (/message is not modified/i.test(err.description)) return { kind: "unchanged" };
  return { kind: "refused" };
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
