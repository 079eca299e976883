/** The Bot API objects the fake Telegram speaks, and what a test gives it. */
import type { Clock } from "../../../core/base/mod.ts";
import type { TgEntity } from "./rendered_text.ts";

/** A Telegram user (the Bot API's User). */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  [field: string]: unknown;
}

/** A Telegram chat (the Bot API's Chat). */
export interface TgChat {
  id: number;
  type: "private" | "group" | "supergroup" | "channel";
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/** A Telegram message (the Bot API's Message), fields as the API spells them. */
export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  date: number;
  edit_date?: number;
  text?: string;
  entities?: TgEntity[];
  caption?: string;
  reply_to_message?: TgMessage;
  [field: string]: unknown;
}

/** A Telegram update: its id and one of message, edited_message, … */
export interface TgUpdate {
  update_id: number;
  [kind: string]: unknown;
}

/** One call the bot made, as the fake received it. */
export interface FakeTelegramCall {
  /** The method as the Bot API spells it (`sendMessage`), whatever case the URL used. */
  method: string;
  /** Query and body parameters merged, JSON-serialized ones parsed. */
  params: Record<string, unknown>;
  /** When it arrived, by the fake's clock (milliseconds since the epoch). */
  at: number;
  token: string;
  /** What the fake answered, once it has: the JSON body, or "dropped" / "garbage". */
  answer?: unknown;
}

/** A Bot API error as Telegram words it. */
export interface TgError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** A fault to answer a call with instead of its result. */
export type FakeTelegramFault =
  | TgError
  /** A body that is no JSON (a proxy's error page), with its HTTP status. */
  | { garbage: string; status?: number; contentType?: string }
  /** The connection dropped before any answer. */
  | { drop: true };

/** How a fake Telegram starts. */
export interface FakeTelegramOptions {
  /** The bot's user; a bot "link_test_bot" unless told. */
  bot?: Partial<TgUser>;
  /**
   * getMe's can_read_all_group_messages: false is privacy mode, where a group's messages reach the
   * bot only as commands, mentions of it and replies to it. True unless told.
   */
  readsAllGroupMessages?: boolean;
  /** Time for dates and long-poll timeouts; the system clock unless told. */
  clock?: Clock;
}

/** Options of a message a user sends. */
export type SayExtra = Partial<Omit<TgMessage, "message_id" | "chat" | "from">>;
