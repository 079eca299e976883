import { type Clock, LinkError, logger } from "../../core/base/mod.ts";
import { isPairingCode } from "../chat/mod.ts";
import { pollForCode, Strikes } from "./pairing_poll.ts";
import type { TelegramAccount } from "./telegram_account.ts";
import { displayName, type TelegramMessage } from "./telegram_update.ts";

const log = logger("telegram");

/** How many wrong codes a sender may send before their messages are no longer read. */
export const PAIRING_STRIKES = 5;

/** A pairing under way: its code, when it expires, and the connection's folder. */
export interface PairTelegramOwnerOptions {
  code: string;
  expiresAt: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The owner paired: their Telegram user id, username, and name. */
export interface TelegramOwner {
  id: number;
  username?: string;
  name: string;
}

/**
 * Long-polls getUpdates until someone sends exactly the code in a private chat before it expires
 * (CON-6): that person is the owner. A wrong or expired code, the code in a group, from a bot or
 * in an edit never pairs; a sender of five wrong codes is no longer read. The offset past every
 * update read is saved, so the carrier does not answer the pairing's messages.
 */
export function pairTelegramOwner(
  account: TelegramAccount,
  options: PairTelegramOwnerOptions,
): Promise<TelegramOwner> {
  const strikes = new Strikes(PAIRING_STRIKES, (sender) => {
    log.warn("Ignoring a sender of wrong pairing codes", { sender });
  });
  return pollForCode(account, {
    ...options,
    action: "Cannot pair the owner on Telegram",
    expired: () =>
      new LinkError("TIMEOUT", "Cannot pair the owner on Telegram: nobody sent the code before it expired", {
        hint: "Connect Telegram to the agent again and send the new code to the bot in a private chat",
      }),
  }, (message) => pairs(message, options.code, strikes));
}

/** The owner a message makes, if it is the code from a person in their private chat. */
function pairs(
  message: TelegramMessage | undefined,
  code: string,
  strikes: Strikes,
): TelegramOwner | undefined {
  const from = message?.from;
  if (!message || !from || from.is_bot) return undefined;
  if (message.chat.type !== "private" || message.chat.id !== from.id) return undefined;
  if (strikes.out(from.id)) return undefined;
  if (message.text !== undefined && isPairingCode(message.text, code)) {
    return { id: from.id, ...(from.username ? { username: from.username } : {}), name: displayName(from) };
  }
  strikes.strike(from.id);
  return undefined;
}
