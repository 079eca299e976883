/**
 * The Telegram connection (CON-6, CON-9, CON-10, CON-13): checks a bot's token, pairs its owner
 * with a one-time code, and carries the owner's private chat to the agent's endpoint through
 * grammY's Bot API client, streaming each answer back and never losing or doubling a message.
 * @module
 */
/** Where the Bot API answers and the bot's token. */
export { type TelegramAccount } from "./telegram_account.ts";
/** Asks Telegram who the token belongs to (getMe). */
export { checkTelegramToken } from "./check_telegram_token.ts";
/** A one-time pairing code, unguessable in its ten minutes and easy to type. */
export { newPairingCode } from "./pairing_code.ts";
/** Takes as owner whoever first sends the code in a private chat. */
export { PAIRING_STRIKES, pairTelegramOwner, type TelegramOwner } from "./pair_telegram_owner.ts";
/** Splits an answer at Telegram's limit, never inside a code block if it can be helped. */
export { splitAnswer, TELEGRAM_LIMIT } from "./split_answer.ts";
