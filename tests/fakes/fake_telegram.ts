/**
 * A fake Telegram Bot API on 127.0.0.1, port 0, faithful enough that grammY's real client pointed
 * at it (`new Bot(token, { client: { apiRoot: fake.apiRoot } })`) cannot tell: `/bot<token>/<method>`
 * by GET or POST with query, JSON, form or multipart parameters, answered `{"ok":true,"result":…}` or
 * `{"ok":false,"error_code":N,"description":…}` with Telegram's own words. getUpdates long-polls with
 * offsets and confirmation and ends an older poll with 409; messages carry ids per chat and read as
 * they now do after edits. A test makes users and chats, has them speak, reads what the bot did,
 * waits for a call, and injects faults (429 with retry_after, 5xx, garbage, dropped polls, revoked
 * tokens).
 *
 * A dropped connection is what a network does: closed with no byte of an answer. Deno's HTTP client
 * (under grammY's node-fetch) sends a request again when a reused keep-alive connection closes that way,
 * so there grammY sees one more call; on a fresh connection it sees an HttpError.
 *
 * Importing this module sets node's `process.noDeprecation`, so grammY's node-fetch does not print
 * its punycode deprecation warning: import it before grammy.
 */
import process from "node:process";
import { type Clock, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import { DROP, type LoopbackServer, serveLoopback } from "./telegram/loopback_server.ts";
import { renderText, type TgEntity } from "./telegram/rendered_text.ts";

(process as { noDeprecation?: boolean }).noDeprecation = true;

export type { TgEntity };

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

const METHODS = [
  "getMe",
  "logOut",
  "close",
  "getUpdates",
  "setWebhook",
  "deleteWebhook",
  "getWebhookInfo",
  "sendMessage",
  "editMessageText",
  "sendChatAction",
  "setMessageReaction",
  "deleteMessage",
  "getChat",
] as const;
type Method = typeof METHODS[number];
const METHOD_BY_LOWER = new Map<string, Method>(METHODS.map((m) => [m.toLowerCase(), m]));

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

/** The emoji a bot may react with, as the Bot API's ReactionTypeEmoji lists them. */
const REACTION_EMOJI = new Set([
  ..."❤👍👎🔥🥰👏😁🤔🤯😱🤬😢🎉🤩🤮💩🙏👌🕊🤡🥱🥴😍🐳🌚🌭💯🤣⚡🍌🏆💔🤨😐🍓🍾💋🖕😈😴😭🤓👻👀🎃🙈😇😨🤝✍🤗🫡🎅🎄☃💅🤪🗿🆒💘🙉🦄😘💊🙊😎👾🤷😡",
  "❤‍🔥",
  "🌚",
  "👨‍💻",
  "🤷‍♂",
  "🤷‍♀",
]);

/** Update kinds delivered when a bot never set allowed_updates. */
const DEFAULT_EXCLUDED = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

/** Telegram's limit on a message's text, in UTF-16 code units after entities are parsed. */
export const TELEGRAM_TEXT_LIMIT = 4096;

const CONFLICT =
  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const NOT_MODIFIED =
  "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

class ApiFailure extends Error {
  constructor(readonly error: TgError) {
    super(error.description);
  }
}

function badRequest(what: string): ApiFailure {
  return new ApiFailure({ error_code: 400, description: `Bad Request: ${what}` });
}

type JsonAnswer = { kind: "json"; status: number; body: unknown };
type Answer =
  | JsonAnswer
  | { kind: "garbage"; status: number; text: string; contentType: string }
  | { kind: "drop" };

interface HeldPoll {
  limit: number;
  finish(answer: Answer): void;
}

interface Waiter {
  method: string;
  predicate: (call: FakeTelegramCall) => boolean;
  resolve(call: FakeTelegramCall): void;
}

/** A running fake Telegram Bot API with one bot; `await using tg = await serveFakeTelegram()`. */
export class FakeTelegram implements AsyncDisposable {
  /** Every call so far, oldest first, faults and failures included. */
  readonly calls: FakeTelegramCall[] = [];
  /** The bot, as getMe answers it. */
  readonly bot: TgUser;
  #server: LoopbackServer;
  #clock: Clock;
  #tokens = new Map<string, { revoked: boolean }>();
  #firstToken: string;
  #readsAll: boolean;
  #updates: TgUpdate[] = [];
  #nextUpdateId = 100_000_001;
  #allowed: Set<string> | undefined;
  #webhook: string | undefined;
  #poll: HeldPoll | undefined;
  #chats = new Map<number, TgChat>();
  #members = new Map<number, TgUser[]>();
  #history = new Map<number, TgMessage[]>();
  #lastMessageId = new Map<number, number>();
  #nextUserId = 700_000_001;
  #nextGroupId = 4_000_000_001;
  #faults = new Map<string, FakeTelegramFault[]>();
  #returned = new Set<FakeTelegramCall>();
  #waiters: Waiter[] = [];
  #closing = new AbortController();

  constructor(options: FakeTelegramOptions = {}) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#readsAll = options.readsAllGroupMessages ?? true;
    this.bot = {
      id: 600_000_001,
      is_bot: true,
      first_name: "Link Test",
      username: "link_test_bot",
      ...options.bot,
    };
    this.#firstToken = this.addToken();
    this.#server = serveLoopback((req, signal) => this.#handle(req, signal));
  }

  /** The Bot API root to give grammY as `client.apiRoot` (no trailing slash). */
  get apiRoot(): string {
    return `http://127.0.0.1:${this.#server.port}`;
  }

  /** A valid token of the bot. */
  get token(): string {
    return this.#firstToken;
  }

  /** Another valid token of the same bot (as BotFather gives after a revoke). */
  addToken(): string {
    const secret = crypto.randomUUID().replaceAll("-", "").slice(0, 35).padEnd(35, "A");
    const token = `${this.bot.id}:${secret}`;
    this.#tokens.set(token, { revoked: false });
    return token;
  }

  /** Revokes a token: every call with it answers 401 from now on, a held poll too. */
  revoke(token: string): void {
    const entry = this.#tokens.get(token);
    if (entry) entry.revoked = true;
    if (this.#poll && this.#pollToken === token) {
      this.#finishPoll(errorAnswer({ error_code: 401, description: "Unauthorized" }));
    }
  }
  #pollToken: string | undefined;

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

  /**
   * `from` says `text` in `chat`: a message update, queued for getUpdates. A command at the start
   * (`/start`) and a mention of the bot (`@link_test_bot`) carry their entities, as Telegram sends them.
   */
  userSays(chat: TgChat, from: TgUser, text: string, extra: SayExtra = {}): TgMessage {
    const entities = entitiesOf(text);
    return this.userSends(chat, from, { text, ...(entities.length > 0 ? { entities } : {}), ...extra });
  }

  /** `from` sends a message of any content (`{ photo: […] }`, `{ sticker: … }`): a message update. */
  userSends(chat: TgChat, from: TgUser, content: SayExtra): TgMessage {
    const message: TgMessage = {
      message_id: this.#nextMessageId(chat.id),
      from,
      chat: this.#chatOf(chat.id),
      date: this.#seconds(),
      ...content,
    };
    this.#historyOf(chat.id).push(message);
    // The update keeps the message as it was sent: a later edit changes the chat, not the update.
    if (this.#seesInGroup(message)) this.enqueue({ message: structuredClone(message) });
    return message;
  }

  /** Privacy mode (readsAllGroupMessages false): in a group, only commands, mentions and replies to the bot. */
  #seesInGroup(message: TgMessage): boolean {
    if (this.#readsAll || message.chat.type === "private" || message.chat.type === "channel") return true;
    if (message.reply_to_message?.from?.id === this.bot.id) return true;
    const text = message.text ?? message.caption ?? "";
    return (message.entities ?? []).some((e) =>
      e.type === "bot_command" ||
      (e.type === "mention" && text.slice(e.offset, e.offset + e.length) === `@${this.bot.username}`)
    );
  }

  /** `from` sends a photo without text (a caption if given). */
  userSendsPhoto(chat: TgChat, from: TgUser, caption?: string): TgMessage {
    const photo = [90, 320, 800].map((size, i) => ({
      file_id: `AgACAgIAAxkBAAI${chat.id}${i}`,
      file_unique_id: `AQAD${size}`,
      width: size,
      height: Math.round(size * 0.75),
      file_size: size * 40,
    }));
    return this.userSends(chat, from, caption === undefined ? { photo } : { photo, caption });
  }

  /** `from` sends a sticker: a message without text. */
  userSendsSticker(chat: TgChat, from: TgUser, emoji = "👍"): TgMessage {
    const sticker = {
      file_id: `CAACAgIAAxkBAAI${chat.id}`,
      file_unique_id: "AgADsticker",
      type: "regular",
      width: 512,
      height: 512,
      is_animated: false,
      is_video: false,
      emoji,
    };
    return this.userSends(chat, from, { sticker });
  }

  /**
   * The sender edits their message: an edited_message update; the message now reads `text` in the
   * chat's history, while an update already queued for it keeps the text it was sent with.
   */
  userEdits(message: TgMessage, text: string): TgMessage {
    const stored = this.#historyOf(message.chat.id).find((m) => m.message_id === message.message_id);
    const edited: TgMessage = { ...(stored ?? message), text, edit_date: this.#seconds() };
    const entities = entitiesOf(text);
    if (entities.length > 0) edited.entities = entities;
    else delete edited.entities;
    if (stored) Object.assign(stored, structuredClone(edited));
    this.enqueue({ edited_message: structuredClone(edited) });
    return edited;
  }

  /** Queues any update (`{ my_chat_member: … }`); it gets the next update_id. */
  enqueue(update: Record<string, unknown>): TgUpdate {
    const full: TgUpdate = { update_id: this.#nextUpdateId++, ...update };
    const kind = Object.keys(update)[0] ?? "";
    const allowed = this.#allowed ? this.#allowed.has(kind) : !DEFAULT_EXCLUDED.has(kind);
    if (!allowed) return full;
    this.#updates.push(full);
    const poll = this.#poll;
    if (poll) this.#finishPoll(okAnswer(this.#updates.slice(0, poll.limit)));
    return full;
  }

  /** The updates not yet confirmed by an offset past them. */
  get pendingUpdates(): TgUpdate[] {
    return [...this.#updates];
  }

  /** Whether a getUpdates is held open now. */
  get polling(): boolean {
    return this.#poll !== undefined;
  }

  /** The messages the bot sent in a chat and has not deleted, as they now read after edits. */
  sent(chatId: number): TgMessage[] {
    return this.#historyOf(chatId).filter((m) => m.from?.id === this.bot.id).map((m) => structuredClone(m));
  }

  /** Every message of a chat, the users' and the bot's, as they now read. */
  history(chatId: number): TgMessage[] {
    return this.#historyOf(chatId).map((m) => structuredClone(m));
  }

  /**
   * The earliest call of `method` (matching `predicate`) this method has not returned yet,
   * waiting for it if need be.
   */
  nextCall(
    method: string,
    predicate: (call: FakeTelegramCall) => boolean = () => true,
  ): Promise<FakeTelegramCall> {
    const found = this.calls.find((c) => c.method === method && !this.#returned.has(c) && predicate(c));
    if (found) {
      this.#returned.add(found);
      return Promise.resolve(found);
    }
    const { promise, resolve } = Promise.withResolvers<FakeTelegramCall>();
    this.#waiters.push({ method, predicate, resolve });
    return promise;
  }

  /** The next `times` calls of `method` get `fault` instead of their answer. */
  failNext(method: string, fault: FakeTelegramFault, options: { times?: number } = {}): void {
    const queue = this.#faults.get(method) ?? [];
    for (let i = 0; i < (options.times ?? 1); i++) queue.push(fault);
    this.#faults.set(method, queue);
  }

  /** Destroys every connection with a call in flight (a held long poll), as a network drop does. */
  dropConnections(): number {
    return this.#server.dropInFlight();
  }

  /** Stops the server, ending held polls and connections. */
  async close(): Promise<void> {
    this.#closing.abort();
    this.#finishPoll({ kind: "drop" });
    await this.#server.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- HTTP

  async #handle(req: Request, signal: AbortSignal): Promise<Response | typeof DROP> {
    const url = new URL(req.url);
    const route = /^\/bot([^/]*)\/([^/]+)$/.exec(url.pathname);
    if (!route) return responseOf(errorAnswer({ error_code: 404, description: "Not Found" }));
    const token = decodeURIComponent(route[1]!);
    const method = METHOD_BY_LOWER.get(route[2]!.toLowerCase()) ?? route[2]!;
    const params = await paramsOf(req, url);
    const call: FakeTelegramCall = { method, params, at: this.#clock.now(), token };
    this.calls.push(call);
    this.#notify(call);
    const answer = await this.#answer(call, signal);
    if (answer.kind === "drop") {
      call.answer = "dropped";
      return DROP;
    }
    call.answer = answer.kind === "json" ? answer.body : "garbage";
    return responseOf(answer);
  }

  #answer(call: FakeTelegramCall, signal: AbortSignal): Answer | Promise<Answer> {
    const fault = this.#faults.get(call.method)?.shift();
    if (fault) return faultAnswer(fault);
    const entry = this.#tokens.get(call.token);
    if (!entry || entry.revoked) return errorAnswer({ error_code: 401, description: "Unauthorized" });
    const known = METHOD_BY_LOWER.get(call.method.toLowerCase());
    if (!known) return errorAnswer({ error_code: 404, description: "Not Found" });
    try {
      if (known === "getUpdates") return this.#getUpdates(call, signal);
      return okAnswer(this.#run(known, call.params));
    } catch (err) {
      if (err instanceof ApiFailure) return errorAnswer(err.error);
      throw err;
    }
  }

  #run(method: Exclude<Method, "getUpdates">, p: Record<string, unknown>): unknown {
    switch (method) {
      case "getMe":
        return {
          ...this.bot,
          can_join_groups: true,
          can_read_all_group_messages: this.#readsAll,
          supports_inline_queries: false,
          can_connect_to_business: false,
          has_main_web_app: false,
        };
      case "logOut":
      case "close":
        return true;
      case "setWebhook": {
        const target = stringParam(p, "url") ?? "";
        this.#webhook = target === "" ? undefined : target;
        if (this.#webhook) this.#finishPoll(errorAnswer({ error_code: 409, description: CONFLICT }));
        if (boolParam(p, "drop_pending_updates")) this.#updates = [];
        return true;
      }
      case "deleteWebhook":
        this.#webhook = undefined;
        if (boolParam(p, "drop_pending_updates")) this.#updates = [];
        return true;
      case "getWebhookInfo":
        return {
          url: this.#webhook ?? "",
          has_custom_certificate: false,
          pending_update_count: this.#updates.length,
        };
      case "getChat":
        return { ...this.#chatParam(p), accent_color_id: 0, max_reaction_count: 11 };
      case "sendMessage":
        return this.#sendMessage(p);
      case "editMessageText":
        return this.#editMessageText(p);
      case "sendChatAction": {
        this.#chatParam(p);
        const action = stringParam(p, "action");
        if (action === undefined || !CHAT_ACTIONS.has(action)) {
          throw badRequest("wrong parameter action in request");
        }
        return true;
      }
      case "setMessageReaction": {
        const chat = this.#chatParam(p);
        const message = this.#messageParam(chat, p, "MESSAGE_ID_INVALID");
        const reaction = jsonParam(p, "reaction") ?? [];
        if (!Array.isArray(reaction)) throw badRequest('field "reaction" must be an Array');
        for (const r of reaction as { type?: unknown; emoji?: unknown }[]) {
          if (r?.type !== "emoji" || typeof r.emoji !== "string" || !REACTION_EMOJI.has(r.emoji)) {
            throw badRequest("REACTION_INVALID");
          }
        }
        message.bot_reaction = reaction;
        return true;
      }
      case "deleteMessage": {
        const chat = this.#chatParam(p);
        const message = this.#messageParam(chat, p, "message to delete not found");
        const history = this.#historyOf(chat.id);
        history.splice(history.indexOf(message), 1);
        return true;
      }
    }
  }

  #getUpdates(call: FakeTelegramCall, signal: AbortSignal): Answer | Promise<Answer> {
    const p = call.params;
    if (this.#webhook !== undefined) {
      return errorAnswer({
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
    }
    // An older poll still held ends now, whatever this one does.
    this.#finishPoll(errorAnswer({ error_code: 409, description: CONFLICT }));
    const offset = intParam(p, "offset") ?? 0;
    const limit = Math.min(100, Math.max(1, intParam(p, "limit") ?? 100));
    const timeout = Math.max(0, intParam(p, "timeout") ?? 0);
    const allowed = jsonParam(p, "allowed_updates");
    if (Array.isArray(allowed)) {
      this.#allowed = allowed.length === 0 ? undefined : new Set(allowed.map(String));
    }
    if (offset > 0) this.#updates = this.#updates.filter((u) => u.update_id >= offset);
    if (offset < 0) this.#updates = this.#updates.slice(offset);
    if (this.#updates.length > 0 || timeout === 0) return okAnswer(this.#updates.slice(0, limit));

    const { promise, resolve } = Promise.withResolvers<Answer>();
    const timer = new AbortController();
    const poll: HeldPoll = {
      limit,
      finish: (answer) => {
        timer.abort();
        signal.removeEventListener("abort", onLeave);
        resolve(answer);
      },
    };
    const onLeave = () => {
      if (this.#poll === poll) this.#finishPoll({ kind: "drop" });
    };
    signal.addEventListener("abort", onLeave);
    this.#poll = poll;
    this.#pollToken = call.token;
    this.#clock.sleep(timeout * 1000, timer.signal).then(
      () => this.#poll === poll && this.#finishPoll(okAnswer([])),
      () => {},
    );
    return promise;
  }

  #finishPoll(answer: Answer): void {
    const poll = this.#poll;
    if (!poll) return;
    this.#poll = undefined;
    this.#pollToken = undefined;
    poll.finish(answer);
  }

  #sendMessage(p: Record<string, unknown>): TgMessage {
    const chat = this.#chatParam(p);
    const rendered = this.#renderedParam(p);
    const message: TgMessage = {
      message_id: 0,
      from: this.bot,
      chat,
      date: this.#seconds(),
      text: rendered.text,
    };
    if (rendered.entities.length > 0) message.entities = rendered.entities;
    const reply = jsonParam(p, "reply_parameters") as
      | { message_id?: unknown; chat_id?: unknown; allow_sending_without_reply?: unknown }
      | undefined;
    const replyTo = typeof reply?.message_id === "number"
      ? reply.message_id
      : intParam(p, "reply_to_message_id");
    if (replyTo !== undefined) {
      const replyChat = reply?.chat_id === undefined ? chat : this.#chatOfParam(reply.chat_id);
      const target = this.#historyOf(replyChat.id).find((m) => m.message_id === replyTo);
      const lenient = reply?.allow_sending_without_reply === true ||
        boolParam(p, "allow_sending_without_reply");
      if (target) message.reply_to_message = withoutReply(target);
      else if (!lenient) throw badRequest("message to be replied not found");
    }
    const markup = jsonParam(p, "reply_markup");
    if (markup !== undefined) message.reply_markup = markup;
    message.message_id = this.#nextMessageId(chat.id);
    this.#historyOf(chat.id).push(message);
    return structuredClone(message);
  }

  #editMessageText(p: Record<string, unknown>): TgMessage | true {
    if (p.inline_message_id !== undefined) throw badRequest("MESSAGE_ID_INVALID");
    const chat = this.#chatParam(p);
    const message = this.#messageParam(chat, p, "message to edit not found");
    if (message.from?.id !== this.bot.id) throw badRequest("message can't be edited");
    const rendered = this.#renderedParam(p, "MESSAGE_TOO_LONG");
    const markup = jsonParam(p, "reply_markup");
    const sameText = message.text === rendered.text &&
      JSON.stringify(message.entities ?? []) === JSON.stringify(rendered.entities);
    const sameMarkup = JSON.stringify(message.reply_markup) === JSON.stringify(markup);
    if (sameText && sameMarkup) throw badRequest(NOT_MODIFIED.slice("Bad Request: ".length));
    message.text = rendered.text;
    if (rendered.entities.length > 0) message.entities = rendered.entities;
    else delete message.entities;
    if (markup !== undefined) message.reply_markup = markup;
    else delete message.reply_markup;
    message.edit_date = this.#seconds();
    return structuredClone(message);
  }

  /** The text parameter rendered; too long is "message is too long" when sent, MESSAGE_TOO_LONG when edited. */
  #renderedParam(
    p: Record<string, unknown>,
    tooLong = "message is too long",
  ): { text: string; entities: TgEntity[] } {
    const rendered = renderText(stringParam(p, "text") ?? "", stringParam(p, "parse_mode"));
    if (!rendered.ok) throw badRequest(rendered.reason);
    if (rendered.text.trim() === "") throw badRequest("message text is empty");
    if (rendered.text.length > TELEGRAM_TEXT_LIMIT) throw badRequest(tooLong);
    return rendered;
  }

  #chatParam(p: Record<string, unknown>): TgChat {
    if (p.chat_id === undefined || p.chat_id === "") throw badRequest("chat_id is empty");
    return this.#chatOfParam(p.chat_id);
  }

  #chatOfParam(value: unknown): TgChat {
    const text = String(value);
    const chat = text.startsWith("@")
      ? [...this.#chats.values()].find((c) => c.type !== "private" && `@${c.username}` === text)
      : this.#chats.get(Number(text));
    if (!chat) throw badRequest("chat not found");
    return chat;
  }

  #messageParam(chat: TgChat, p: Record<string, unknown>, missing: string): TgMessage {
    const id = intParam(p, "message_id");
    if (id === undefined) throw badRequest("message identifier is not specified");
    const message = this.#historyOf(chat.id).find((m) => m.message_id === id);
    if (!message) throw badRequest(missing);
    return message;
  }

  #chatOf(id: number): TgChat {
    const chat = this.#chats.get(id);
    if (!chat) throw new Error(`No chat ${id}: make it with privateChat() or group() first`);
    return chat;
  }

  #historyOf(chatId: number): TgMessage[] {
    let history = this.#history.get(chatId);
    if (!history) this.#history.set(chatId, history = []);
    return history;
  }

  #nextMessageId(chatId: number): number {
    const id = (this.#lastMessageId.get(chatId) ?? 0) + 1;
    this.#lastMessageId.set(chatId, id);
    return id;
  }

  #seconds(): number {
    return Math.floor(this.#clock.now() / 1000);
  }

  #notify(call: FakeTelegramCall): void {
    const waiter = this.#waiters.find((w) => w.method === call.method && w.predicate(call));
    if (!waiter) return;
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    this.#returned.add(call);
    waiter.resolve(call);
  }
}

/** Starts a fake Telegram Bot API; `await using tg = await serveFakeTelegram()`. */
export function serveFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  return Promise.resolve(new FakeTelegram(options));
}

function okAnswer(result: unknown): JsonAnswer {
  return { kind: "json", status: 200, body: { ok: true, result } };
}

function errorAnswer(error: TgError): JsonAnswer {
  const body: Record<string, unknown> = {
    ok: false,
    error_code: error.error_code,
    description: error.description,
  };
  if (error.parameters) body.parameters = error.parameters;
  return { kind: "json", status: error.error_code, body };
}

function faultAnswer(fault: FakeTelegramFault): Answer {
  if ("drop" in fault) return { kind: "drop" };
  if ("garbage" in fault) {
    return {
      kind: "garbage",
      status: fault.status ?? 502,
      text: fault.garbage,
      contentType: fault.contentType ?? "text/html",
    };
  }
  return errorAnswer(fault);
}

function responseOf(answer: Exclude<Answer, { kind: "drop" }>): Response {
  if (answer.kind === "garbage") {
    return new Response(answer.text, {
      status: answer.status,
      headers: { "content-type": answer.contentType },
    });
  }
  return Response.json(answer.body, { status: answer.status });
}

function withoutReply(message: TgMessage): TgMessage {
  const copy = structuredClone(message);
  delete copy.reply_to_message;
  return copy;
}

function entitiesOf(text: string): TgEntity[] {
  const entities: TgEntity[] = [];
  for (const match of text.matchAll(/(^\/[a-zA-Z0-9_]+(?:@[a-zA-Z0-9_]+)?)|(@[a-zA-Z0-9_]{5,32})/g)) {
    const type = match[1] !== undefined ? "bot_command" : "mention";
    entities.push({ type, offset: match.index, length: match[0].length });
  }
  return entities;
}

// ---- parameters

async function paramsOf(req: Request, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (req.method === "GET" || req.method === "HEAD") return params;
  if (type.startsWith("application/json")) {
    try {
      const body = await req.json();
      if (body !== null && typeof body === "object" && !Array.isArray(body)) Object.assign(params, body);
    } catch {
      // Telegram reads a body it cannot parse as no parameters.
    }
  } else if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await req.formData();
    for (const [key, value] of form) params[key] = typeof value === "string" ? value : value.name;
  } else {
    await req.body?.cancel();
  }
  return params;
}

function stringParam(p: Record<string, unknown>, name: string): string | undefined {
  const value = p[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : String(value);
}

function intParam(p: Record<string, unknown>, name: string): number | undefined {
  const value = p[name];
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

function boolParam(p: Record<string, unknown>, name: string): boolean {
  const value = p[name];
  return value === true || value === "true" || value === "1" || value === "True";
}

/** A parameter the Bot API takes JSON-serialized: parsed when it came as a string. */
function jsonParam(p: Record<string, unknown>, name: string): unknown {
  const value = p[name];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
