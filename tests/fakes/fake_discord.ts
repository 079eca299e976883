/**
 * A fake Discord on 127.0.0.1, port 0, faithful enough that Discord's official clients pointed at it
 * (`new REST({ api: fake.apiUrl, version: "10" }).setToken(fake.token)`, `new WebSocketManager({
 * token: fake.token, intents, rest })`) cannot tell: REST v10 under `<apiUrl>/v10/` with `Authorization:
 * Bot <token>`, Discord's error bodies and per-route rate limits (headers on every answer, 429 into an
 * empty bucket, recorded as a violation); the Gateway v10 in JSON (`discord/gateway.ts`) at the url
 * GET gateway/bot gives, behind a TCP relay so a test can cut sockets as a network does.
 *
 * A test makes users, guilds, channels and DMs, has users speak, edit and delete, reads what the bot
 * did (calls, messages as they now read, typing), waits for a call, and injects faults. As Discord
 * does, the bot hears its own messages as MESSAGE_CREATE unless `echoBotMessages` is off.
 */
import type { APIGuild, APIMessage, APIUser } from "discord-api-types/v10";
import { type Clock, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import { deleteView, INTENTS, messageView, readyOf } from "./discord/events.ts";
import {
  type Dispatch,
  type FakeDiscordClose,
  type FakeDiscordHeartbeat,
  type FakeDiscordIdentify,
  type FakeDiscordResume,
  type FakeDiscordSockets,
  Gateway,
} from "./discord/gateway.ts";
import {
  bodyOf,
  type FakeDiscordFault,
  faultAnswer,
  type HttpAnswer,
  rateLimited,
  responseOf,
  tokenOf,
} from "./discord/http.ts";
import {
  DEFAULT_RATE_LIMIT,
  type RateLimit,
  RateLimits,
  type RateLimitViolation,
} from "./discord/rate_limits.ts";
import {
  apiError,
  type FakeDiscordRoute,
  matchRoute,
  type RestEffects,
  runRoute,
  UNAUTHENTICATED,
  UNAUTHORIZED,
} from "./discord/rest.ts";
import { TcpRelay } from "./discord/relay.ts";
import { Calls, type FakeDiscordCall } from "./discord/calls.ts";
import { DISCORD_TEXT_LIMIT, type DiscordChannel, World } from "./discord/world.ts";

export { DEFAULT_RATE_LIMIT, DISCORD_TEXT_LIMIT, INTENTS };
export type {
  DiscordChannel,
  Dispatch,
  FakeDiscordClose,
  FakeDiscordFault,
  FakeDiscordHeartbeat,
  FakeDiscordIdentify,
  FakeDiscordResume,
  FakeDiscordRoute,
  FakeDiscordSockets,
  RateLimit,
  RateLimitViolation,
};

/** How a fake Discord starts. */
export interface FakeDiscordOptions {
  /** Time for ids, timestamps and rate limits; the system clock unless told. */
  clock?: Clock;
  /** Each route's bucket; 5 per 5 s unless told. */
  rateLimit?: RateLimit;
  /** HELLO's heartbeat_interval; 41,250 ms, as Discord sends, unless told. */
  heartbeatIntervalMs?: number;
  /** Whether the bot hears its own messages and edits as dispatches. True unless told. */
  echoBotMessages?: boolean;
}

/** Extras of a user's message: `mentionBot` names the bot at its start (and in `mentions`). */
export type UserMessageExtra = Partial<APIMessage> & { mentionBot?: boolean };

/** A running fake Discord with one bot; `await using discord = await serveFakeDiscord()`. */
export class FakeDiscord implements AsyncDisposable {
  readonly token: string;
  #clock: Clock;
  #echo: boolean;
  #world: World;
  #limits: RateLimits;
  #gateway: Gateway;
  #server: Deno.HttpServer<Deno.NetAddr>;
  #relay: TcpRelay;
  #closing = Promise.withResolvers<void>();
  #closed: Promise<void> | undefined;
  #tokens = new Map<string, { revoked: boolean }>();
  #calls = new Calls();

  constructor(options: FakeDiscordOptions = {}) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#echo = options.echoBotMessages ?? true;
    this.#world = new World(this.#clock);
    this.#limits = new RateLimits(this.#clock, options.rateLimit ?? DEFAULT_RATE_LIMIT);
    this.#gateway = new Gateway({
      clock: this.#clock,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      tokenValid: (token) => this.#valid(token),
      resumeUrl: () => this.gatewayUrl,
      ready: (sessionId, intents) => readyOf(this.#world, { sessionId, resumeUrl: this.gatewayUrl, intents }),
    });
    this.token = this.addToken();
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => this.#handle(req));
    this.#relay = new TcpRelay(this.#server.addr.port);
  }

  /** The REST root to give the client as `api` (the client adds `/v10`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/api`;
  }

  /** The Gateway's url, as GET gateway/bot and READY's resume_gateway_url give it. */
  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.#relay.port}`;
  }

  /** Another valid bot token, shaped as Discord's: the bot's id in base64, a time, an HMAC. */
  addToken(): string {
    const secret = crypto.randomUUID().replaceAll("-", "");
    const token = `${btoa(this.#world.botUser.id).replaceAll("=", "")}.${secret.slice(0, 6)}.${secret}`;
    this.#tokens.set(token, { revoked: false });
    return token;
  }

  /** From now on `token` gets 401 from REST; its sockets close with 4004 and its sessions end. */
  revoke(token: string): void {
    const entry = this.#tokens.get(token);
    if (entry) entry.revoked = true;
    this.#gateway.closeSockets(4004, { reason: "Authentication failed.", token });
  }

  /** Every REST call so far, oldest first, faults and refusals included. */
  get calls(): FakeDiscordCall[] {
    return [...this.#calls.all];
  }

  /** The bot's own user (`bot: true`). */
  get bot(): APIUser {
    return structuredClone(this.#world.botUser);
  }

  /** A new user named `name`; `{ bot: true }` for another bot. */
  user(name: string, extra: Partial<APIUser> = {}): APIUser {
    return structuredClone(this.#world.addUser(name, extra));
  }

  /** A new guild the bot is in; sessions identified from now on get its GUILD_CREATE. */
  guild(name: string): APIGuild {
    return structuredClone(this.#world.addGuild(name));
  }

  /** A new text channel (type 0) in `guild`. */
  channel(guild: APIGuild, name: string): DiscordChannel {
    return structuredClone(this.#world.addChannel(guild, name));
  }

  /** The DM channel (type 1) between `user` and the bot, the same each time. */
  dm(user: APIUser): DiscordChannel {
    return structuredClone(this.#world.dmOf(user));
  }

  /** `user` says `text` in `channel`: a MESSAGE_CREATE (guild_id in a guild, `mentions`). */
  userSays(channel: DiscordChannel, user: APIUser, text: string, extra: UserMessageExtra = {}): APIMessage {
    const { mentionBot, ...rest } = extra;
    const mention = `<@${this.#world.botUser.id}>`;
    const content = mentionBot && !text.includes(mention) ? `${mention} ${text}` : text;
    const stored = this.#channel(channel);
    const message = this.#world.post(stored, this.#world.users.get(user.id) ?? user, content, rest);
    this.#gateway.dispatch("MESSAGE_CREATE", messageView(stored, message, this.#world.botUser));
    return structuredClone(message);
  }

  /** The author edits `message`: a MESSAGE_UPDATE; it now reads `text`. */
  edit(message: APIMessage, text: string): APIMessage {
    const stored = this.#stored(message);
    stored.content = text;
    stored.mentions = this.#world.mentionsIn(text);
    stored.edited_timestamp = this.#world.timestamp();
    const channel = this.#channel(message.channel_id);
    this.#gateway.dispatch("MESSAGE_UPDATE", messageView(channel, stored, this.#world.botUser));
    return structuredClone(stored);
  }

  /** The author deletes `message`: a MESSAGE_DELETE; it is gone from its channel. */
  delete(message: APIMessage): void {
    const stored = this.#stored(message);
    const history = this.#world.historyOf(message.channel_id);
    history.splice(history.indexOf(stored), 1);
    this.#gateway.dispatch("MESSAGE_DELETE", deleteView(this.#channel(message.channel_id), stored));
  }

  /** Every message of a channel, the users' and the bot's, as they now read after edits. */
  messages(channel: string | DiscordChannel): APIMessage[] {
    return this.#world.historyOf(idOf(channel)).map((m) => structuredClone(m));
  }

  /** When the bot said it was typing in a channel (POST typing), by the fake's clock. */
  typing(channel: string | DiscordChannel): number[] {
    return [...this.#world.typing.get(idOf(channel)) ?? []];
  }

  /** Requests made into an empty bucket before its reset: a client obeying the headers makes none. */
  get rateLimitViolations(): RateLimitViolation[] {
    return [...this.#limits.violations];
  }

  /** The earliest call of `route` (matching `predicate`) not returned yet, waiting for it if need be. */
  nextCall(
    route: FakeDiscordRoute,
    predicate: (call: FakeDiscordCall) => boolean = () => true,
  ): Promise<FakeDiscordCall> {
    return this.#calls.next(route, predicate);
  }

  /** The next `times` calls of `route` get `fault` instead of their answer. */
  failNext(route: FakeDiscordRoute, fault: FakeDiscordFault, options: { times?: number } = {}): void {
    this.#calls.failNext(route, fault, options.times ?? 1);
  }

  /** Sockets open now, ever opened, and the most open at once. */
  get sockets(): FakeDiscordSockets {
    return this.#gateway.sockets;
  }

  /** Every IDENTIFY, oldest first. */
  get identifies(): FakeDiscordIdentify[] {
    return [...this.#gateway.identifies];
  }

  /** Every RESUME, oldest first, with whether it resumed and how many dispatches it replayed. */
  get resumes(): FakeDiscordResume[] {
    return [...this.#gateway.resumes];
  }

  /** Every heartbeat, oldest first. */
  get heartbeats(): FakeDiscordHeartbeat[] {
    return [...this.#gateway.heartbeats];
  }

  /** Every socket's end, oldest first. */
  get closes(): FakeDiscordClose[] {
    return [...this.#gateway.closes];
  }

  /** The sessions, oldest first: id, whether it can be resumed, its last seq. */
  get sessions(): { session_id: string; live: boolean; seq: number }[] {
    return this.#gateway.sessions;
  }

  /** Resolves once `check()` holds, checked after each gateway event and REST call. */
  when(check: () => boolean): Promise<void> {
    return this.#gateway.until(check);
  }

  /** Cuts every Gateway socket's TCP connection, no close frame (the client sees 1006); how many. */
  dropSockets(): number {
    this.#gateway.markDropped();
    return this.#relay.dropAll();
  }

  /** Sends op 7 RECONNECT on every open socket; how many. */
  sendReconnect(): number {
    return this.#gateway.sendReconnect();
  }

  /** Sends op 9 INVALID_SESSION (`d` = `resumable`) on every identified socket; how many. */
  invalidateSession(resumable: boolean): number {
    return this.#gateway.invalidateSession(resumable);
  }

  /** Ends every session, so the next RESUME gets INVALID_SESSION, with no word on the sockets. */
  expireSessions(): void {
    this.#gateway.expireSessions();
  }

  /** Heartbeats on the sockets open now get no ACK any more (a zombie connection); how many sockets. */
  stopAcking(): number {
    return this.#gateway.stopAcking();
  }

  /** Sends op 1, asking every open socket for a heartbeat now; how many. */
  requestHeartbeat(): number {
    return this.#gateway.requestHeartbeat();
  }

  /** Closes every open socket with `code` (4000 unknown error, 4004 authentication failed…); how many. */
  closeSockets(code: number, reason = ""): number {
    return this.#gateway.closeSockets(code, { reason });
  }

  /** Closes the fake: the gateway's sockets (1001), then its listeners. Once; again is nothing. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing.resolve();
      await this.#gateway.close();
      await this.#relay.close();
      await this.#server.shutdown();
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #valid(token: string): boolean {
    const entry = this.#tokens.get(token);
    return entry !== undefined && !entry.revoked;
  }

  #channel(channel: string | DiscordChannel): DiscordChannel {
    const stored = this.#world.channels.get(idOf(channel));
    if (!stored) throw new Error(`No channel ${idOf(channel)}`);
    return stored;
  }

  #stored(message: APIMessage): APIMessage {
    const stored = this.#world.find(message.channel_id, message.id);
    if (!stored) throw new Error(`No message ${message.id} in ${message.channel_id}`);
    return stored;
  }

  #effects: RestEffects = {
    created: (channel, message) => {
      if (this.#echo) {
        this.#gateway.dispatch("MESSAGE_CREATE", messageView(channel, message, this.#world.botUser));
      }
    },
    updated: (channel, message) => {
      if (this.#echo) {
        this.#gateway.dispatch("MESSAGE_UPDATE", messageView(channel, message, this.#world.botUser));
      }
    },
    deleted: (channel, message) => this.#gateway.dispatch("MESSAGE_DELETE", deleteView(channel, message)),
    gatewayUrl: () => this.gatewayUrl,
    identifiesLeft: () => 1000 - this.#gateway.identifies.length,
  };

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") return this.#gateway.upgrade(req);
    const path = /^\/api\/v10(\/.*)$/.exec(url.pathname)?.[1];
    const matched = path === undefined ? undefined : matchRoute(req.method, path);
    if (!matched || path === undefined) {
      await req.body?.cancel();
      return responseOf({ ...apiError(404, 0, "404: Not Found"), headers: {} });
    }
    const call: FakeDiscordCall = {
      route: matched.route,
      method: req.method,
      path,
      params: matched.params,
      query: Object.fromEntries(url.searchParams),
      body: await bodyOf(req),
      token: tokenOf(req),
      at: this.#clock.now(),
      violation: false,
    };
    const fault = this.#calls.takeFault(call.route);
    const exhaust = (seconds: number) => this.#limits.exhaust(call.route, call.params.id ?? "", seconds);
    const answer = fault && !("unanswered" in fault) ? faultAnswer(fault, exhaust) : this.#answer(call);
    call.answer = { status: answer.status, body: answer.body };
    this.#calls.answered(call);
    this.#gateway.changed();
    if (fault && "unanswered" in fault) {
      // Done, and the bot never hears so: the answer waits for the fake's close.
      await this.#closing.promise;
    }
    return responseOf(answer);
  }

  #answer(call: FakeDiscordCall): HttpAnswer {
    const major = call.params.id ?? "";
    const taken = this.#limits.take(call.route, major);
    if (taken.retryAfter !== undefined) {
      call.violation = true;
      return rateLimited(taken.retryAfter, false, taken.headers);
    }
    if (!UNAUTHENTICATED.has(call.route) && !this.#valid(call.token)) {
      return { ...UNAUTHORIZED, headers: taken.headers };
    }
    return { ...runRoute(this.#world, call, this.#effects), headers: taken.headers };
  }
}

/** Starts a fake Discord; `await using discord = await serveFakeDiscord()`. */
export function serveFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  return Promise.resolve(new FakeDiscord(options));
}

const idOf = (channel: string | DiscordChannel): string => typeof channel === "string" ? channel : channel.id;
