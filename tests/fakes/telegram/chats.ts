/** The fake Telegram's world: its users, its chats with their members, and every chat's messages. */
import { badRequest, intParam } from "./wire.ts";
import type { TgEntity } from "./rendered_text.ts";
import type { TgChat, TgMessage, TgUser } from "./types.ts";

/** The users, chats and histories a fake Telegram holds, with the ids Telegram would give them. */
export class FakeChats {
  #chats = new Map<number, TgChat>();
  #members = new Map<number, TgUser[]>();
  #history = new Map<number, TgMessage[]>();
  #lastMessageId = new Map<number, number>();
  #nextUserId = 700_000_001;
  #nextGroupId = 4_000_000_001;

  /** A new user (not a bot unless `is_bot` says so). */
  user(firstName: string, extra: Partial<TgUser> = {}): TgUser {
    return { id: this.#nextUserId++, is_bot: false, first_name: firstName, ...extra };
  }

  /** The private chat between `user` and the bot. */
  privateChat(user: TgUser): TgChat {
    const chat: TgChat = { id: user.id, type: "private", first_name: user.first_name };
    if (user.last_name !== undefined) chat.last_name = user.last_name;
    if (user.username !== undefined) chat.username = user.username;
    this.#chats.set(chat.id, chat);
    this.#members.set(chat.id, [user]);
    return chat;
  }

  /** A group the bot is in, with `members`; a supergroup (id -100…) when asked. */
  group(title: string, members: TgUser[], options: { supergroup?: boolean; username?: string } = {}): TgChat {
    const n = this.#nextGroupId++;
    const chat: TgChat = options.supergroup
      ? { id: -(1_000_000_000_000 + n), type: "supergroup", title }
      : { id: -n, type: "group", title };
    if (options.username !== undefined) chat.username = options.username;
    this.#chats.set(chat.id, chat);
    this.#members.set(chat.id, [...members]);
    return chat;
  }

  /** A chat a test made; one it did not make is the test's own mistake. */
  chatOf(id: number): TgChat {
    const chat = this.#chats.get(id);
    if (!chat) throw new Error(`No chat ${id}: make it with privateChat() or group() first`);
    return chat;
  }

  /** A chat's messages, the users' and the bot's, as they now read. */
  historyOf(chatId: number): TgMessage[] {
    let history = this.#history.get(chatId);
    if (!history) this.#history.set(chatId, history = []);
    return history;
  }

  /** The next message id of a chat: Telegram counts each chat's messages on their own. */
  nextMessageId(chatId: number): number {
    const id = (this.#lastMessageId.get(chatId) ?? 0) + 1;
    this.#lastMessageId.set(chatId, id);
    return id;
  }

  /** The chat a call's `chat_id` names, as Telegram refuses one it does not know. */
  chatParam(p: Record<string, unknown>): TgChat {
    if (p.chat_id === undefined || p.chat_id === "") throw badRequest("chat_id is empty");
    return this.chatOfParam(p.chat_id);
  }

  /** A chat by its id or its public `@username`. */
  chatOfParam(value: unknown): TgChat {
    const text = String(value);
    const chat = text.startsWith("@")
      ? [...this.#chats.values()].find((c) => c.type !== "private" && `@${c.username}` === text)
      : this.#chats.get(Number(text));
    if (!chat) throw badRequest("chat not found");
    return chat;
  }

  /** The message a call's `message_id` names in `chat`, or Telegram's `missing` words. */
  messageParam(chat: TgChat, p: Record<string, unknown>, missing: string): TgMessage {
    const id = intParam(p, "message_id");
    if (id === undefined) throw badRequest("message identifier is not specified");
    const message = this.historyOf(chat.id).find((m) => m.message_id === id);
    if (!message) throw badRequest(missing);
    return message;
  }
}

/** A message as a reply carries it: without the message it replied to. */
export function withoutReply(message: TgMessage): TgMessage {
  const copy = structuredClone(message);
  delete copy.reply_to_message;
  return copy;
}

/** The entities Telegram finds in a user's text: a command at the start, and mentions. */
export function entitiesOf(text: string): TgEntity[] {
  const entities: TgEntity[] = [];
  for (const match of text.matchAll(/(^\/[a-zA-Z0-9_]+(?:@[a-zA-Z0-9_]+)?)|(@[a-zA-Z0-9_]{5,32})/g)) {
    const type = match[1] !== undefined ? "bot_command" : "mention";
    entities.push({ type, offset: match.index, length: match[0].length });
  }
  return entities;
}

/** A photo in three sizes, as a user's client uploads it. */
export function photoOf(chatId: number): Record<string, unknown>[] {
  return [90, 320, 800].map((size, i) => ({
    file_id: `AgACAgIAAxkBAAI${chatId}${i}`,
    file_unique_id: `AQAD${size}`,
    width: size,
    height: Math.round(size * 0.75),
    file_size: size * 40,
  }));
}

/** A sticker, as a user sends one. */
export function stickerOf(chatId: number, emoji: string): Record<string, unknown> {
  return {
    file_id: `CAACAgIAAxkBAAI${chatId}`,
    file_unique_id: "AgADsticker",
    type: "regular",
    width: 512,
    height: 512,
    is_animated: false,
    is_video: false,
    emoji,
  };
}
