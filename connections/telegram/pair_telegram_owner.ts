import { type Clock, LinkError, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import { telegramFailure } from "./check_telegram_token.ts";
import { isPairingCode } from "../chat/mod.ts";
import { grammySignal, type TelegramAccount, telegramApi } from "./telegram_account.ts";
import { displayName, type TelegramMessage, TelegramUpdate } from "./telegram_update.ts";
import { readOffset, saveOffset } from "./update_offset.ts";

const log = logger("telegram");

/** How many wrong codes a sender may send before their messages are no longer read. */
export const PAIRING_STRIKES = 5;
/** The longest one getUpdates waits, in seconds. */
const POLL_SECONDS = 30;

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
export async function pairTelegramOwner(
  account: TelegramAccount,
  options: PairTelegramOwnerOptions,
): Promise<TelegramOwner> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const api = telegramApi(account);
  const strikes = new Map<number, number>();
  let offset = await readOffset(options.stateDir);
  while (clock.now() < options.expiresAt) {
    options.signal?.throwIfAborted();
    const timeout = Math.max(0, Math.min(POLL_SECONDS, Math.ceil((options.expiresAt - clock.now()) / 1000)));
    let updates: unknown[];
    try {
      updates = await api.getUpdates(
        { offset, timeout, allowed_updates: ["message"] },
        grammySignal(options.signal),
      );
    } catch (err) {
      options.signal?.throwIfAborted();
      throw telegramFailure(account, err, "Cannot pair the owner on Telegram");
    }
    let owner: TelegramOwner | undefined;
    for (const raw of updates) {
      const update = TelegramUpdate.safeParse(raw);
      if (!update.success) continue;
      offset = Math.max(offset, update.data.update_id + 1);
      if (owner || clock.now() >= options.expiresAt) continue;
      owner = pairs(update.data.message, options.code, strikes);
    }
    await saveOffset(options.stateDir, offset);
    if (owner) return owner;
  }
  throw new LinkError(
    "TIMEOUT",
    "Cannot pair the owner on Telegram: nobody sent the code before it expired",
    {
      hint: "Connect Telegram to the agent again and send the new code to the bot in a private chat",
    },
  );
}

/** The owner a message makes, if it is the code from a person in their private chat. */
function pairs(
  message: TelegramMessage | undefined,
  code: string,
  strikes: Map<number, number>,
): TelegramOwner | undefined {
  const from = message?.from;
  if (!message || !from || from.is_bot) return undefined;
  if (message.chat.type !== "private" || message.chat.id !== from.id) return undefined;
  const struck = strikes.get(from.id) ?? 0;
  if (struck >= PAIRING_STRIKES) return undefined;
  if (message.text !== undefined && isPairingCode(message.text, code)) {
    return { id: from.id, ...(from.username ? { username: from.username } : {}), name: displayName(from) };
  }
  strikes.set(from.id, struck + 1);
  if (struck + 1 === PAIRING_STRIKES) {
    log.warn("Ignoring a sender of wrong pairing codes", { sender: from.id });
  }
  return undefined;
}
