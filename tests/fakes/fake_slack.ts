/**
 * A fake Slack on 127.0.0.1, port 0, faithful enough that Slack's official clients pointed at it
 * (`new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl })`, `new SocketModeClient({ appToken:
 * fake.appToken, clientOptions: { slackApiUrl: fake.apiUrl } })`) cannot tell: the Web API as `POST
 * /api/<method>` (form or JSON, `Authorization: Bearer`), answered `{"ok":true,…}` or
 * `{"ok":false,"error":…}` with HTTP 200, and 429 with `Retry-After` when rate limited; Socket Mode
 * (`slack/socket_mode.ts`) with hello, envelopes, acks, redelivery and disconnect frames.
 *
 * A test makes users, DMs and channels, has users speak, reads what the app did (calls, messages as
 * they now read, reactions, acks, sockets), waits for a call, and injects faults. As Slack does, the
 * app hears its own posts and edits as `message` events (with `bot_id`) unless `echoBotMessages` is off.
 */
import { type Clock, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import {
  appMentionEvent,
  changedEvent,
  deletedEvent,
  eventCallback,
  messageEvent,
  type SlackEvent,
} from "./slack/events.ts";
import {
  type DisconnectReason,
  type FakeSlackAck,
  type FakeSlackSockets,
  type SlackEnvelope,
  SocketHub,
} from "./slack/socket_mode.ts";
import {
  failed,
  type FakeSlackFault,
  faultAnswer,
  paramsOf,
  responseOf,
  type SlackAnswer,
  tokenOf,
} from "./slack/http.ts";
import { METHODS, runMethod, SlackApiError, type WebApiEffects } from "./slack/web_api.ts";
import {
  APP_ID,
  BOT_ID,
  BOT_USER_ID,
  type SlackConversation,
  type SlackMessage,
  type SlackUser,
  TEAM_ID,
  Workspace,
} from "./slack/workspace.ts";

export { ACK_TIMEOUT_MS, MAX_RETRIES } from "./slack/socket_mode.ts";
export { SLACK_TEXT_LIMIT } from "./slack/web_api.ts";
export { APP_ID, BOT_ID, BOT_USER_ID, TEAM_ID };
export type {
  DisconnectReason,
  FakeSlackAck,
  FakeSlackFault,
  FakeSlackSockets,
  SlackConversation,
  SlackEnvelope,
  SlackEvent,
  SlackMessage,
  SlackUser,
};

/** One Web API call the app made, as the fake received it. */
export interface FakeSlackCall {
  method: string;
  /** Form or JSON body parameters (and the query), the token among them only if sent so. */
  params: Record<string, unknown>;
  /** The token it carried (Bearer or `token` parameter), "" when none. */
  token: string;
  /** When it arrived, by the fake's clock. */
  at: number;
  /** What the fake answered, once it has: HTTP status and JSON body (or text). */
  answer?: { status: number; body: unknown };
}

/** How a fake Slack starts. */
export interface FakeSlackOptions {
  /** Time for ts, acks' 3 s and event times; the system clock unless told. */
  clock?: Clock;
  /** Whether the app hears its own posts and edits as events, as Slack sends them. True unless told. */
  echoBotMessages?: boolean;
}

interface Waiter {
  method: string;
  predicate: (call: FakeSlackCall) => boolean;
  resolve(call: FakeSlackCall): void;
}

/** A running fake Slack workspace with one app; `await using slack = await serveFakeSlack()`. */
export class FakeSlack implements AsyncDisposable {
  /** Every Web API call so far, oldest first, faults and failures included. */
  readonly calls: FakeSlackCall[] = [];
  readonly botToken: string;
  readonly appToken: string;
  #clock: Clock;
  #echo: boolean;
  #ws: Workspace;
  #hub: SocketHub;
  #server: Deno.HttpServer<Deno.NetAddr>;
  #tokens = new Map<string, { kind: "bot" | "app"; revoked?: string }>();
  #faults = new Map<string, FakeSlackFault[]>();
  #returned = new Set<FakeSlackCall>();
  #waiters: Waiter[] = [];

  constructor(options: FakeSlackOptions = {}) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#echo = options.echoBotMessages ?? true;
    this.#ws = new Workspace(this.#clock);
    this.#hub = new SocketHub(this.#clock);
    this.botToken = this.addToken("bot");
    this.appToken = this.addToken("app");
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => this.#handle(req));
  }

  /** The Web API root to give the clients as `slackApiUrl` (ends with `/api/`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/api/`;
  }

  /** Another valid token: a bot token `xoxb-…` or an app-level token `xapp-…`. */
  addToken(kind: "bot" | "app"): string {
    const secret = crypto.randomUUID().replaceAll("-", "");
    const token = kind === "bot"
      ? `xoxb-1000000001-${1000000000 + this.#tokens.size}-${secret.slice(0, 24)}`
      : `xapp-1-${APP_ID}-${1000000000 + this.#tokens.size}-${secret}`;
    this.#tokens.set(token, { kind });
    return token;
  }

  /** From now on a call with `token` answers `error`: `token_revoked` unless told (`account_inactive`). */
  revoke(token: string, error = "token_revoked"): void {
    const entry = this.#tokens.get(token);
    if (entry) entry.revoked = error;
  }

  /** The bot's own user. */
  get bot(): SlackUser {
    return structuredClone(this.#ws.botUser);
  }

  /** A new workspace user named `name` (`ada`). */
  user(name: string, extra: Partial<SlackUser> = {}): SlackUser {
    return structuredClone(this.#ws.addUser(name, extra));
  }

  /** The DM between `user` and the bot (`D…`), the same each time. */
  dm(user: SlackUser): SlackConversation {
    return structuredClone(this.#ws.dmOf(user.id));
  }

  /** A channel (`C…`) the bot is in, with `members`. */
  channel(name: string, members: SlackUser[]): SlackConversation {
    return structuredClone(this.#ws.addChannel(name, members.map((m) => m.id)));
  }

  /**
   * `user` says `text` in `conversation`: a `message` event (`channel_type` im or channel), and in a
   * channel an `app_mention` too when the text names the bot (`<@U0LINKBOT1>`). With `thread_ts` in
   * `extra`, a reply in that message's thread, with its `parent_user_id`, as Slack sends one.
   */
  userSays(
    conversation: SlackConversation,
    user: SlackUser,
    text: string,
    extra: Partial<SlackMessage> = {},
  ): SlackMessage {
    const message: SlackMessage = {
      client_msg_id: crypto.randomUUID(),
      type: "message",
      text,
      user: user.id,
      ts: this.#ws.nextTs(),
      team: TEAM_ID,
      ...extra,
    };
    const parent = this.#ws.historyOf(conversation.id).find((m) => m.ts === extra.thread_ts);
    if (parent && extra.thread_ts !== message.ts) message.parent_user_id = parent.user ?? parent.bot_id;
    this.#ws.historyOf(conversation.id).push(message);
    this.#deliver(messageEvent(conversation, message));
    if (conversation.type === "channel" && text.includes(`<@${BOT_USER_ID}>`)) {
      this.#deliver(appMentionEvent(conversation, message));
    }
    return structuredClone(message);
  }

  /** Another bot (`bot_id`) posts in `conversation`: a `bot_message`. */
  otherBotSays(conversation: SlackConversation, text: string, botId = "B0OTHERBOT"): SlackMessage {
    const message: SlackMessage = {
      type: "message",
      subtype: "bot_message",
      text,
      ts: this.#ws.nextTs(),
      bot_id: botId,
    };
    this.#ws.historyOf(conversation.id).push(message);
    this.#deliver(messageEvent(conversation, message));
    return structuredClone(message);
  }

  /** The sender edits `message`: a `message_changed` event; it now reads `text`. */
  userEdits(conversation: SlackConversation, message: SlackMessage, text: string): SlackMessage {
    const stored = this.#stored(conversation, message);
    const previous = structuredClone(stored);
    stored.text = text;
    stored.edited = { user: stored.user ?? "", ts: this.#ws.nextTs() };
    this.#deliver(changedEvent(conversation, previous, stored, this.#ws.nextTs()));
    return structuredClone(stored);
  }

  /** The sender deletes `message`: a `message_deleted` event; it is gone from the conversation. */
  userDeletes(conversation: SlackConversation, message: SlackMessage): void {
    const stored = this.#stored(conversation, message);
    const history = this.#ws.historyOf(conversation.id);
    history.splice(history.indexOf(stored), 1);
    this.#deliver(deletedEvent(conversation, stored, this.#ws.nextTs()));
  }

  /** Sends any event (`{ type: "reaction_added", … }`) in an envelope. */
  sendEvent(event: SlackEvent): SlackEnvelope {
    return this.#deliver(event);
  }

  /** Every message of a conversation, the users' and the app's, as they now read after updates. */
  messages(channel: string | SlackConversation): SlackMessage[] {
    return this.#ws.historyOf(idOf(channel)).map((m) => structuredClone(m));
  }

  /** The reactions on a message: `[{ name, users, count }]`. */
  reactions(
    channel: string | SlackConversation,
    ts: string,
  ): { name: string; users: string[]; count: number }[] {
    return structuredClone(this.#ws.find(idOf(channel), ts)?.reactions ?? []);
  }

  /** Every ack the app sent, oldest first. */
  get acks(): FakeSlackAck[] {
    return [...this.#hub.acks];
  }

  /** Envelopes whose last retry went unacked. */
  get givenUp(): SlackEnvelope[] {
    return [...this.#hub.givenUp];
  }

  /** Sockets open now, ever opened, and the most open at once. */
  get sockets(): FakeSlackSockets {
    return this.#hub.sockets;
  }

  /** Resolves once `envelope` is acked. */
  acked(envelope: SlackEnvelope | string): Promise<void> {
    const id = typeof envelope === "string" ? envelope : envelope.envelope_id;
    return this.#hub.until(() => this.#hub.acked(id));
  }

  /** Resolves once every envelope delivered so far is acked: the app has read all it was sent. */
  allAcked(): Promise<void> {
    return this.#hub.until(() => this.#hub.allAcked());
  }

  /** Resolves once the sockets (open now, ever) satisfy `check`. */
  socketsWhen(check: (sockets: FakeSlackSockets) => boolean): Promise<void> {
    return this.#hub.until(() => check(this.#hub.sockets));
  }

  /** Resolves once `n` envelopes were given up. */
  givenUpCount(n: number): Promise<void> {
    return this.#hub.until(() => this.#hub.givenUp.length >= n);
  }

  /** The earliest call of `method` (matching `predicate`) not returned yet, waiting for it if need be. */
  nextCall(method: string, predicate: (call: FakeSlackCall) => boolean = () => true): Promise<FakeSlackCall> {
    const found = this.calls.find((c) => c.method === method && !this.#returned.has(c) && predicate(c));
    if (found) {
      this.#returned.add(found);
      return Promise.resolve(found);
    }
    const { promise, resolve } = Promise.withResolvers<FakeSlackCall>();
    this.#waiters.push({ method, predicate, resolve });
    return promise;
  }

  /** The next `times` calls of `method` get `fault` instead of their answer. */
  failNext(method: string, fault: FakeSlackFault, options: { times?: number } = {}): void {
    const queue = this.#faults.get(method) ?? [];
    for (let i = 0; i < (options.times ?? 1); i++) queue.push(fault);
    this.#faults.set(method, queue);
  }

  /** Sends a `disconnect` frame with `reason` on every open socket, then closes them; how many. */
  sendDisconnect(reason: DisconnectReason): number {
    return this.#hub.sendDisconnect(reason);
  }

  /** Closes every open socket with no disconnect frame; how many. */
  dropSockets(): number {
    return this.#hub.dropSockets();
  }

  async close(): Promise<void> {
    await this.#hub.close();
    await this.#server.shutdown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #deliver(event: SlackEvent): SlackEnvelope {
    return this.#hub.deliver(eventCallback(event, Math.floor(this.#clock.now() / 1000)));
  }

  #stored(conversation: SlackConversation, message: SlackMessage): SlackMessage {
    const stored = this.#ws.find(conversation.id, message.ts);
    if (!stored) throw new Error(`No message ${message.ts} in ${conversation.id}`);
    return stored;
  }

  #effects: WebApiEffects = {
    posted: (conversation, message) => {
      if (this.#echo) this.#deliver(messageEvent(conversation, message));
    },
    changed: (conversation, previous, message) => {
      if (this.#echo) this.#deliver(changedEvent(conversation, previous, message, this.#ws.nextTs()));
    },
    socketUrl: () =>
      `ws://127.0.0.1:${this.#server.addr.port}/link/?ticket=${this.#hub.issueTicket()}&app_id=${APP_ID}`,
  };

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname === "/link/" || url.pathname === "/link") return this.#hub.upgrade(req);
    const route = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname);
    if (!route || req.method !== "POST" && req.method !== "GET") {
      await req.body?.cancel();
      return new Response("Not Found", { status: 404 });
    }
    const params = await paramsOf(req, url);
    const call: FakeSlackCall = {
      method: route[1]!,
      params,
      token: tokenOf(req, params),
      at: this.#clock.now(),
    };
    this.calls.push(call);
    this.#notify(call);
    const answer = this.#answer(call);
    call.answer = { status: answer.status, body: answer.body };
    return responseOf(answer);
  }

  #answer(call: FakeSlackCall): SlackAnswer {
    const fault = this.#faults.get(call.method)?.shift();
    if (fault) return faultAnswer(fault);
    if (call.token === "") return failed("not_authed");
    const entry = this.#tokens.get(call.token);
    if (!entry) return failed("invalid_auth");
    if (entry.revoked) return failed(entry.revoked);
    const kind = METHODS[call.method];
    if (!kind) return failed("unknown_method");
    if (kind !== entry.kind) return failed("not_allowed_token_type");
    try {
      return {
        status: 200,
        body: { ok: true, ...runMethod(this.#ws, call.method, call.params, this.#effects) },
      };
    } catch (err) {
      if (err instanceof SlackApiError) return failed(err.error);
      throw err;
    }
  }

  #notify(call: FakeSlackCall): void {
    const waiter = this.#waiters.find((w) => w.method === call.method && w.predicate(call));
    if (!waiter) return;
    this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
    this.#returned.add(call);
    waiter.resolve(call);
  }
}

/** Starts a fake Slack; `await using slack = await serveFakeSlack()`. */
export function serveFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  return Promise.resolve(new FakeSlack(options));
}

function idOf(channel: string | SlackConversation): string {
  return typeof channel === "string" ? channel : channel.id;
}
