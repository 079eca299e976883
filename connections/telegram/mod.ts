/**
 * The Telegram connection (CON-6, CON-9, CON-10, CON-13, ACS-5): checks a bot's token, pairs its
 * owner with a one-time code, shares a group with a code the owner mentions there, and carries the
 * owner's private chat, shared groups and admitted people to the agent's endpoint through grammY's
 * Bot API client, streaming each answer back and never losing or doubling a message.
 * @module
 */
// First: node's deprecation warnings off before grammY loads (see the file).
import "./quiet_deprecations.ts";
/** Where the Bot API answers and the bot's token. */
export { type TelegramAccount } from "./telegram_account.ts";
/** Asks Telegram who the token belongs to (getMe). */
export { checkTelegramToken } from "./check_telegram_token.ts";
/** A one-time pairing code, unguessable in its ten minutes and easy to type. */
export { newPairingCode } from "../chat/mod.ts";
/** Takes as owner whoever first sends the code in a private chat. */
export { PAIRING_STRIKES, pairTelegramOwner, type TelegramOwner } from "./pair_telegram_owner.ts";
/** Shares a group: the owner's mention of the bot with a one-time code in it, while the bridge is stopped. */
export {
  pairTelegramShare,
  type PairTelegramShareOptions,
  type TelegramShare,
} from "./pair_telegram_share.ts";
/** Splits an answer at Telegram's limit, never inside a code block if it can be helped. */
export { splitAnswer, TELEGRAM_LIMIT } from "./split_answer.ts";
/** Carries the owner's private chat to the agent's endpoint and each answer back, until stopped. */
export { carryTelegram, type CarryTelegramOptions } from "./carry_telegram.ts";
/** How the carrier is: polling, reconnecting or failed, with why. */
export { type TelegramState } from "./telegram_state.ts";
/** The reply to a message with no text. */
export { ONLY_TEXT_REPLY } from "./answer_update.ts";
/** Streaming an answer: how often it is edited, and how often typing is shown again. */
export { AnswerStream, type AnswerStreamOptions, EDIT_EVERY_MS, TYPING_EVERY_MS } from "./answer_stream.ts";
/** The inbox of kept updates and the kept offset, in the connection's folder. */
export { inboxDir } from "./inbox.ts";
/** How long a poll waits, and how much longer it may take before it counts as stopped. */
export { POLL_GRACE_MS, POLL_SECONDS } from "./poll_updates.ts";
export { offsetPath } from "./update_offset.ts";
