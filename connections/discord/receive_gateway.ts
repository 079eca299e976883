import { type IIdentifyThrottler, WebSocketManager, WebSocketShardEvents } from "@discordjs/ws";
import { GatewayDispatchEvents, type GatewayDispatchPayload, GatewayIntentBits } from "discord-api-types/v10";
import { type Clock, logger } from "../../core/base/mod.ts";
import { type DiscordAccount, discordRest, isTokenRefused, reasonOf, redacted } from "./discord_account.ts";
import type { DiscordState } from "./discord_state.ts";
import { type GatewaySession, readSession, saveSession } from "./gateway_session.ts";

const log = logger("discord");

/** What Link asks the gateway for: guilds and their messages, DMs, and the messages' text. */
export const GATEWAY_INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages |
  GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;
/** Discord lets a bot IDENTIFY once each five seconds; a resume storm is not an identify storm. */
export const IDENTIFY_EVERY_MS = 5000;
/** The longest wait between two tries to reach Discord again. */
export const MAX_RETRY_MS = 30_000;
/** The client's reasons for a destroy after which Discord will not resume the session. */
const SESSION_ENDED = /^(Invalid session|Got disconnected by Discord)/;
/** The gateway's close code for a token it will not take. */
const AUTHENTICATION_FAILED = 4004;

/** What receiving needs: the account, and where each MESSAGE_CREATE goes before its seq is kept. */
export interface ReceiveGatewayOptions {
  account: DiscordAccount;
  /** Where the session is kept for a RESUME after a restart; none: kept in memory only. */
  stateDir?: string;
  clock: Clock;
  signal: AbortSignal;
  onState(state: DiscordState): void;
  /** The bot as READY names it. */
  onReady?(bot: { id: string; username: string }): void;
  /** A session kept from before (a restart) resumed: no READY names the bot. */
  onResumed?(): void;
  /** Keeps one message; the session's seq moves past it only once this resolves. */
  keep(message: unknown): Promise<void>;
}

/**
 * Holds one gateway connection (one shard) through @discordjs/ws until `signal` aborts. The client
 * does the gateway's own recovery: a dropped socket or a RECONNECT resumes, and the missed events
 * are replayed; an INVALID_SESSION identifies afresh; a heartbeat not acked (a zombie socket) is
 * closed and resumed. Each is said as "reconnecting", then "connected". Each dispatch is handled in
 * the order it came. A token Discord refuses (close 4004, or 401 on GET gateway/bot) ends it ("failed").
 */
export async function receiveGateway(options: ReceiveGatewayOptions): Promise<"stopped" | "failed"> {
  const { clock, signal } = options;
  let last: DiscordState["state"] | undefined;
  const say = (state: DiscordState["state"], why?: string) => {
    if (state === last && !why) return;
    last = state;
    options.onState({ state, ...(why ? { why } : {}), at: clock.now() });
  };
  for (let failures = 0; !signal.aborted;) {
    const ended = await holdOne(options, say).catch((err) =>
      err instanceof Error ? err : new Error(String(err))
    );
    if (signal.aborted) break;
    if (ended === "refused" || isTokenRefused(ended)) {
      log.error("Cannot carry Discord: Discord refused the token");
      say("failed", "Discord refused the token: it may have been revoked or reset");
      return "failed";
    }
    const why = ended instanceof Error ? reasonOf(options.account, ended) : "the gateway connection ended";
    log.info("Cannot reach the Discord gateway, trying again", { why, failures });
    say("reconnecting", why);
    failures++;
    await clock.sleep(Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)), signal).catch(() => {});
  }
  return "stopped";
}

/** One WebSocketManager, from GET gateway/bot until `signal` aborts or the token is refused. */
async function holdOne(
  options: ReceiveGatewayOptions,
  say: (state: DiscordState["state"], why?: string) => void,
): Promise<"refused" | "stopped"> {
  const { account, signal } = options;
  const store = new SessionStore(
    options.stateDir,
    options.stateDir ? await readSession(options.stateDir) : null,
  );
  const refused = Promise.withResolvers<"refused">();
  const late = new LateConnect();
  const manager = new WebSocketManager({
    token: account.token.reveal(),
    intents: GATEWAY_INTENTS,
    rest: discordRest(account),
    shardCount: 1,
    shardIds: [0],
    buildIdentifyThrottler: () => new ClockThrottler(options.clock),
    retrieveSessionInfo: () => late.stopping ? late.held() : store.live,
    updateSessionInfo: (_shard, info) => {
      if (late.stopping) return;
      // The client forgets the session at any destroy that does not resume, a network error's
      // included: Discord would replay what came meanwhile, so only an ended session is forgotten.
      if (info === null && destroyedFor !== undefined && !SESSION_ENDED.test(destroyedFor)) return;
      return store.update(info as GatewaySession | null);
    },
  });
  let order = Promise.resolve();
  manager.on(WebSocketShardEvents.Dispatch, (payload: GatewayDispatchPayload) => {
    order = order.then(() => dispatch(options, store, payload)).catch((err) => {
      log.warn("Cannot keep a Discord message", { err: reasonOf(account, err) });
    });
  });
  manager.on(WebSocketShardEvents.Ready, (data) => {
    options.onReady?.({ id: data.user.id, username: data.user.username });
    say("connected");
  });
  manager.on(WebSocketShardEvents.Resumed, () => {
    options.onResumed?.();
    say("connected");
  });
  // The client says why it closes a socket only in its debug lines: "Zombie connection", "Told
  // to reconnect by Discord", "Invalid session"; the next close says it as "reconnecting".
  let reason: string | undefined;
  let destroyedFor: string | undefined;
  manager.on(WebSocketShardEvents.Closed, (code: number) => {
    if (code === AUTHENTICATION_FAILED) return refused.resolve("refused");
    const why = `the gateway connection closed (${code}${reason ? `: ${reason}` : ""})`;
    reason = undefined;
    if (!signal.aborted) say("reconnecting", why);
  });
  manager.on(
    WebSocketShardEvents.Error,
    (err: Error) => log.debug("The Discord gateway client failed", { err: reasonOf(account, err) }),
  );
  manager.on(WebSocketShardEvents.Debug, (message: string) => {
    late.heard(message);
    if (/^Destroying shard/.test(message)) destroyedFor = /^\s*Reason: (.+)$/m.exec(message)?.[1];
    reason = /^\s*Reason: (.+)$/m.exec(message)?.[1] ?? reason;
    log.debug(redacted(account, message));
  });
  const stopped = Promise.withResolvers<"stopped">();
  const stop = () => stopped.resolve("stopped");
  signal.addEventListener("abort", stop, { once: true });
  try {
    // connect() resolves at the first READY or RESUMED; after that the client recovers by itself.
    const connecting = manager.connect();
    connecting.catch(() => {});
    await Promise.race([connecting, refused.promise, stopped.promise]);
    return await Promise.race([refused.promise, stopped.promise]);
  } finally {
    signal.removeEventListener("abort", stop);
    late.stopping = true;
    // A destroy landing while the client waits for READY never resolves: the client's own destroy
    // to recover takes over the socket's close, and its reconnect is then held.
    const destroyed = Promise.resolve(manager.destroy({ reason: "Link stops carrying" })).catch(() => {});
    await Promise.race([destroyed, late.asked]);
    await late.settled();
    manager.removeAllListeners();
    await order;
    await store.settled();
  }
}

/** One dispatch, in its turn: a message kept, then the seq past it kept for a RESUME. */
async function dispatch(
  options: ReceiveGatewayOptions,
  store: SessionStore,
  payload: GatewayDispatchPayload,
) {
  if (payload.t === GatewayDispatchEvents.MessageCreate) await options.keep(payload.d);
  await store.passed(payload.s);
}

/**
 * The session as the client sees it (`live`) and as kept in the folder: the kept seq moves only
 * past dispatches handled, never to one the client read and Link did not yet keep.
 */
class SessionStore {
  live: GatewaySession | null;
  #dir: string | undefined;
  #kept: GatewaySession | null;
  #writes = Promise.resolve();

  constructor(dir: string | undefined, session: GatewaySession | null) {
    this.#dir = dir;
    this.live = session;
    this.#kept = session;
  }

  update(info: GatewaySession | null): Promise<void> {
    this.live = info;
    if (info && this.#kept && info.sessionId === this.#kept.sessionId) return Promise.resolve();
    return this.#keep(info);
  }

  passed(seq: number): Promise<void> {
    const kept = this.#kept;
    if (!kept || this.live?.sessionId !== kept.sessionId || seq <= kept.sequence) return Promise.resolve();
    return this.#keep({ ...kept, sequence: seq });
  }

  settled(): Promise<void> {
    return this.#writes;
  }

  #keep(session: GatewaySession | null): Promise<void> {
    this.#kept = session;
    const dir = this.#dir;
    if (dir === undefined) return Promise.resolve();
    this.#writes = this.#writes.then(() => saveSession(dir, session)).catch((err) => {
      log.warn("Cannot keep the Discord gateway session", { err });
    });
    return this.#writes;
  }
}

/**
 * The reconnect the client cannot be told to drop: a shard destroyed to recover (a zombie, a
 * RECONNECT, a wait that failed, or Link's own destroy landing mid-handshake) sleeps 500 ms on a
 * timer of its own, then connects again, stopped or not. Once Link stops, the session is asked for
 * at that connect's start and never given, so no socket opens late; stopping waits for that ask,
 * so no timer outlives the carrier. Once stopping, the session kept is left as it was, for a RESUME
 * after a restart.
 */
class LateConnect {
  stopping = false;
  #pending = false;
  #asked = Promise.withResolvers<void>();

  /** Reads the client's debug lines: a destroy to recover, then its connect. */
  heard(message: string): void {
    if (/^Destroying shard/.test(message)) this.#pending = /Recover: (Resume|Reconnect)/.test(message);
    else if (/^Connecting to /.test(message)) this.#pending = false;
  }

  /** Resolves once the client asked for a session while stopping. */
  get asked(): Promise<void> {
    return this.#asked.promise;
  }

  /** What the client gets for a session once stopping: nothing, ever. */
  held(): Promise<never> {
    this.#asked.resolve();
    return new Promise<never>(() => {});
  }

  /** Resolves once no reconnect can come: none pending, or the pending one held. */
  settled(): Promise<void> {
    return this.#pending ? this.#asked.promise : Promise.resolve();
  }
}

/** Lets one IDENTIFY go each five seconds by the carrier's clock (the first at once). */
class ClockThrottler implements IIdentifyThrottler {
  #clock: Clock;
  #lastAt = -Infinity;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async waitForIdentify(_shard: number, signal: AbortSignal): Promise<void> {
    const wait = this.#lastAt + IDENTIFY_EVERY_MS - this.#clock.now();
    if (wait > 0) await this.#clock.sleep(wait, signal);
    this.#lastAt = this.#clock.now();
  }
}
