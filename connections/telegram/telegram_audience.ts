import type { Api } from "grammy";
import type { ChatAccess } from "../../core/spec/mod.ts";
import type { TelegramMessage } from "./telegram_update.ts";

/** The bot as getMe names it: what a mention of it and a reply to it are told by. */
export interface TelegramBotIdentity {
  id: number;
  username: string;
}

/** Who asks in a message the carrier answers: the owner (no `from`) or a person admitted (ACS-2). */
export interface TelegramAsker {
  chatId: number;
  /** `person:telegram:<user id>` for anyone but the owner. */
  from?: string;
  /** Whether it came in a shared group (kept for held answers, SCH-3), not a private chat. */
  inGroup: boolean;
}

/** Whether a message is in a group or supergroup shared with the agent (ACS-1). */
export function isSharedGroup(message: TelegramMessage, access: ChatAccess | undefined): boolean {
  return isGroup(message) && access?.chats.has(String(message.chat.id)) === true;
}

/** Whether a message is in a group or supergroup. */
export function isGroup(message: TelegramMessage): boolean {
  return message.chat.type === "group" || message.chat.type === "supergroup";
}

/**
 * Who asks, if the carrier answers the message at all (ACS-1, CON-7): the owner's private chat; a
 * private chat of a person admitted one by one; in a shared group, a person's message that
 * mentions the bot or replies to it (all a bot in privacy mode gets). Never a bot's, never an
 * unshared group's, never a stranger's. `bot` is needed only for a shared group's message.
 */
export function askerOf(
  message: TelegramMessage,
  who: { ownerId: number; access?: ChatAccess; bot?: TelegramBotIdentity },
): TelegramAsker | undefined {
  const sender = message.from;
  if (!sender || sender.is_bot) return undefined;
  const from = sender.id === who.ownerId ? {} : { from: `person:telegram:${sender.id}` };
  if (message.chat.type === "private") {
    if (message.chat.id !== sender.id) return undefined;
    if (sender.id !== who.ownerId && !who.access?.persons.has(String(sender.id))) return undefined;
    return { chatId: message.chat.id, ...from, inGroup: false };
  }
  if (!isSharedGroup(message, who.access) || !who.bot || !addressesBot(message, who.bot)) return undefined;
  return { chatId: message.chat.id, ...from, inGroup: true };
}

/** Whether a message mentions the bot (`@<username>`) or replies to one of its messages. */
export function addressesBot(message: TelegramMessage, bot: TelegramBotIdentity): boolean {
  return message.reply_to_message?.from?.id === bot.id || mentionsOf(message, bot).length > 0;
}

/** The text of a message with its mentions of the bot taken out, trimmed. */
export function withoutMentions(message: TelegramMessage, bot: TelegramBotIdentity): string {
  let text = message.text ?? "";
  for (const e of mentionsOf(message, bot).sort((a, b) => b.offset - a.offset)) {
    text = text.slice(0, e.offset) + text.slice(e.offset + e.length);
  }
  return text.trim();
}

function mentionsOf(message: TelegramMessage, bot: TelegramBotIdentity) {
  const text = message.text ?? "";
  const name = `@${bot.username}`.toLowerCase();
  return (message.entities ?? []).filter((e) =>
    e.type === "mention" && text.slice(e.offset, e.offset + e.length).toLowerCase() === name
  );
}

/** The bot's identity, asked of Telegram once it is first needed and again after a failure. */
export function botIdentity(api: Api): () => Promise<TelegramBotIdentity> {
  let known: Promise<TelegramBotIdentity> | undefined;
  return () => {
    known ??= api.getMe().then((me) => ({ id: me.id, username: me.username }));
    known.catch(() => known = undefined);
    return known;
  };
}
