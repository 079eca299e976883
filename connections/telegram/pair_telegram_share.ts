import { type Clock, LinkError, logger } from "../../core/base/mod.ts";
import { isPairingCode } from "../chat/mod.ts";
import { telegramFailure } from "./check_telegram_token.ts";
import { PAIRING_STRIKES } from "./pair_telegram_owner.ts";
import { pollForCode, Strikes } from "./pairing_poll.ts";
import { type TelegramAccount, telegramApi } from "./telegram_account.ts";
import { addressesBot, isGroup, type TelegramBotIdentity, withoutMentions } from "./telegram_audience.ts";
import type { TelegramMessage } from "./telegram_update.ts";

const log = logger("telegram");

/** A share under way: its code, when it expires, the owner, and the connection's folder. */
export interface PairTelegramShareOptions {
  code: string;
  expiresAt: number;
  /** The paired owner's Telegram user id: nobody else shares. */
  ownerId: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/** The chat shared: its id as `chat:telegram:<id>` names it, and its title. */
export interface TelegramShare {
  chat: string;
  title: string;
}

/**
 * Long-polls getUpdates, while the bridge is stopped, until the owner mentions the bot with the
 * code (`@<bot> ABCD-EFGH`, or the code in a reply to the bot) in a group or supergroup before it
 * expires (ACS-5): that group is shared. The code in a private chat, from anyone else, from a bot,
 * in an edit or after it expired never shares; a sender of five wrong codes is no longer read. It
 * never writes the spec; the offset past every update read is saved, so carrying starts after.
 */
export async function pairTelegramShare(
  account: TelegramAccount,
  options: PairTelegramShareOptions,
): Promise<TelegramShare> {
  let bot: TelegramBotIdentity;
  try {
    const me = await telegramApi(account).getMe();
    bot = { id: me.id, username: me.username };
  } catch (err) {
    throw telegramFailure(account, err, "Cannot share a chat on Telegram");
  }
  const strikes = new Strikes(PAIRING_STRIKES, (sender) => {
    log.warn("Ignoring a sender of wrong share codes", { sender });
  });
  return await pollForCode(account, {
    ...options,
    action: "Cannot share a chat on Telegram",
    expired: () =>
      new LinkError("TIMEOUT", "Cannot share a chat on Telegram: the owner sent no code before it expired", {
        hint: "Share the chat again and mention the bot with the new code in the group",
      }),
  }, (message) => shares(message, { ...options, bot }, strikes));
}

/** The share a message makes, if it is the owner's mention of the bot with the code in a group. */
function shares(
  message: TelegramMessage | undefined,
  options: { code: string; ownerId: number; bot: TelegramBotIdentity },
  strikes: Strikes,
): TelegramShare | undefined {
  const from = message?.from;
  if (!message || !from || from.is_bot || !isGroup(message)) return undefined;
  if (!addressesBot(message, options.bot) || strikes.out(from.id)) return undefined;
  if (from.id === options.ownerId && isPairingCode(withoutMentions(message, options.bot), options.code)) {
    const chat = String(message.chat.id);
    return { chat, title: message.chat.title ?? chat };
  }
  strikes.strike(from.id);
  return undefined;
}
