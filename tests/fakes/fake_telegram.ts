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
import type { TgEntity } from "./telegram/rendered_text.ts";
import {
  deleteMessage,
  editMessageText,
  sendChatAction,
  sendMessage,
  setMessageReaction,
} from "./telegram/bot_messages.ts";
import { entitiesOf, FakeChats, photoOf, stickerOf } from "./telegram/chats.ts";
import { UpdateQueue } from "./telegram/update_queue.ts";
import type {
  FakeTelegramCall,
  FakeTelegramFault,
  FakeTelegramOptions,
  SayExtra,
  TgChat,
  TgMessage,
  TgUpdate,
  TgUser,
} from "./telegram/types.ts";
import {
  type Answer,
  ApiFailure,
  boolParam,
  CONFLICT,
  errorAnswer,
  faultAnswer,
  type Method,
  METHOD_BY_LOWER,
  okAnswer,
  paramsOf,
  responseOf,
  stringParam,
} from "./telegram/wire.ts";

(process as { noDeprecation?: boolean }).noDeprecation = true;

export type { TgEntity };
export type * from "./telegram/types.ts";
export { TELEGRAM_TEXT_LIMIT } from "./telegram/wire.ts";

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
  #faults = new Map<string, FakeTelegramFault[]>();
  #returned = new Set<FakeTelegramCall>();
  #waiters: Waiter[] = [];
  #closing = new AbortController();
  #queue: UpdateQueue;
  #chats = new FakeChats();

  constructor(options: FakeTelegramOptions = {}) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#queue = new UpdateQueue(this.#clock);
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
    if (this.#queue.pollToken === token) {
      this.#queue.finishPoll(errorAnswer({ error_code: 401, description: "Unauthorized" }));
    }
  }

  /** A new user (not a bot unless `is_bot` says so). */
  user(firstName: string, extra: Partial<TgUser> = {}): TgUser {
    return this.#chats.user(firstName, extra);
  }

  /** The private chat between `user` and the bot. */
  privateChat(user: TgUser): TgChat {
    return this.#chats.privateChat(user);
  }

  /** A group the bot is in, with `members`; a supergroup (id -100…) when asked. */
  group(title: string, members: TgUser[], options: { supergroup?: boolean; username?: string } = {}): TgChat {
    return this.#chats.group(title, members, options);
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
      message_id: this.#chats.nextMessageId(chat.id),
      from,
      chat: this.#chats.chatOf(chat.id),
      date: this.#seconds(),
      ...content,
    };
    this.#chats.historyOf(chat.id).push(message);
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
    const photo = photoOf(chat.id);
    return this.userSends(chat, from, caption === undefined ? { photo } : { photo, caption });
  }

  /** `from` sends a sticker: a message without text. */
  userSendsSticker(chat: TgChat, from: TgUser, emoji = "👍"): TgMessage {
    return this.userSends(chat, from, { sticker: stickerOf(chat.id, emoji) });
  }

  /**
   * The sender edits their message: an edited_message update; the message now reads `text` in the
   * chat's history, while an update already queued for it keeps the text it was sent with.
   */
  userEdits(message: TgMessage, text: string): TgMessage {
    const stored = this.#chats.historyOf(message.chat.id).find((m) => m.message_id === message.message_id);
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
    return this.#queue.enqueue(update);
  }

  /** The updates not yet confirmed by an offset past them. */
  get pendingUpdates(): TgUpdate[] {
    return this.#queue.pending;
  }

  /** Whether a getUpdates is held open now. */
  get polling(): boolean {
    return this.#queue.polling;
  }

  /** The messages the bot sent in a chat and has not deleted, as they now read after edits. */
  sent(chatId: number): TgMessage[] {
    return this.#chats.historyOf(chatId).filter((m) => m.from?.id === this.bot.id).map((m) =>
      structuredClone(m)
    );
  }

  /** Every message of a chat, the users' and the bot's, as they now read. */
  history(chatId: number): TgMessage[] {
    return this.#chats.historyOf(chatId).map((m) => structuredClone(m));
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
    this.#queue.finishPoll({ kind: "drop" });
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
      if (known === "getUpdates") return this.#queue.getUpdates(call, signal);
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
        this.#queue.webhook = target === "" ? undefined : target;
        if (target !== "") this.#queue.finishPoll(errorAnswer({ error_code: 409, description: CONFLICT }));
        if (boolParam(p, "drop_pending_updates")) this.#queue.drop();
        return true;
      }
      case "deleteWebhook":
        this.#queue.webhook = undefined;
        if (boolParam(p, "drop_pending_updates")) this.#queue.drop();
        return true;
      case "getWebhookInfo":
        return {
          url: this.#queue.webhook ?? "",
          has_custom_certificate: false,
          pending_update_count: this.#queue.pending.length,
        };
      case "getChat":
        return { ...this.#chats.chatParam(p), accent_color_id: 0, max_reaction_count: 11 };
      case "sendMessage":
        return sendMessage(this.#world, p);
      case "editMessageText":
        return editMessageText(this.#world, p);
      case "sendChatAction":
        return sendChatAction(this.#world, p);
      case "setMessageReaction":
        return setMessageReaction(this.#world, p);
      case "deleteMessage":
        return deleteMessage(this.#world, p);
    }
  }

  get #world(): { chats: FakeChats; bot: TgUser; seconds(): number } {
    return { chats: this.#chats, bot: this.bot, seconds: () => this.#seconds() };
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
