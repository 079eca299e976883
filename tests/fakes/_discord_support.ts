/**
 * The official Discord clients pointed at the fake, for the fake's own tests: @discordjs/rest with no
 * sweeper timers, and a connected @discordjs/ws WebSocketManager whose dispatches a test awaits.
 */
import { type FakeDiscord } from "./fake_discord.ts";
import { REST } from "@discordjs/rest";
import { type SessionInfo, WebSocketManager, WebSocketShardEvents } from "@discordjs/ws";
import { type GatewayDispatchPayload, GatewayIntentBits } from "discord-api-types/v10";

export const INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages |
  GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;

/** The official REST client on the fake, with no sweeper timers left running. */
export function restOf(discord: FakeDiscord, token = discord.token): REST & Disposable {
  const rest = new REST({ api: discord.apiUrl, version: "10", hashSweepInterval: 0, handlerSweepInterval: 0 })
    .setToken(token);
  return Object.assign(rest, { [Symbol.dispose]() {} });
}

/** A WebSocketManager on the fake, connected; dispatches land in `next()`, its own session store. */
export interface TestGateway extends AsyncDisposable {
  manager: WebSocketManager;
  /** The next dispatch of type `t` (others before it skipped). */
  next<T extends GatewayDispatchPayload["t"]>(t: T): Promise<Extract<GatewayDispatchPayload, { t: T }>>;
  dispatches: GatewayDispatchPayload[];
  session(): SessionInfo | null;
}

export async function gatewayOf(
  discord: FakeDiscord,
  options: { intents?: number } = {},
): Promise<TestGateway> {
  const rest = restOf(discord);
  let session: SessionInfo | null = null;
  const manager = new WebSocketManager({
    token: discord.token,
    intents: options.intents ?? INTENTS,
    rest,
    // Discord allows one IDENTIFY per 5 s; the fake does not enforce it, so the tests skip the wait.
    buildIdentifyThrottler: () => Promise.resolve({ waitForIdentify: () => Promise.resolve() }),
    retrieveSessionInfo: () => session,
    updateSessionInfo: (_shard, info) => {
      session = info;
    },
  });
  const dispatches: GatewayDispatchPayload[] = [];
  let wake: (() => void) | undefined;
  manager.on(WebSocketShardEvents.Dispatch, (payload) => {
    dispatches.push(payload);
    wake?.();
  });
  /** The next dispatch of type `t` (others before it skipped). */
  const next = async <T extends GatewayDispatchPayload["t"]>(t: T) => {
    for (;;) {
      const index = dispatches.findIndex((d) => d.t === t);
      if (index >= 0) {
        return dispatches.splice(0, index + 1).at(-1) as Extract<GatewayDispatchPayload, { t: T }>;
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      wake = resolve;
      await promise;
    }
  };
  await manager.connect();
  return {
    manager,
    next,
    dispatches,
    session: () => session,
    async [Symbol.asyncDispose]() {
      await manager.destroy();
    },
  };
}
