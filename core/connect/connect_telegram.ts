import { type Clock, LinkError, logger, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { whileStopped } from "./while_stopped.ts";
import { PAIRING_MS } from "./known_connections.ts";
import { TelegramBot } from "./telegram_settings.ts";
import { writeConnectionSecret } from "./connection_secret.ts";

const log = logger("connect");

/** What `lnk agent connect telegram` was given. */
export interface ConnectTelegramOptions {
  token: Secret;
  apiRoot: string;
  /** Told the one-time code once the token checks and the agent is stopped, before pairing waits. */
  onCode(pairing: { code: string; expiresAt: number; bot: string }): void;
  signal?: AbortSignal;
  clock?: Clock;
}

/**
 * Connects Telegram: checks the token with the Bot API (getMe), stops the agent while it pairs,
 * takes as owner whoever sends the one-time code in a private chat within ten minutes (CON-6),
 * keeps the token in the connection's folder (never the sandbox's, CON-12) and `bots.telegram` in
 * the settings, then starts the agent again if it ran. A pairing that fails leaves the agent as it
 * was and its connections unchanged.
 */
export async function connectTelegram(
  ctx: AgentContext,
  agent: AgentSettings,
  options: ConnectTelegramOptions,
): Promise<{ agent: AgentSettings; bot: TelegramBot }> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  // Loaded here, never with the bridge: grammY is the Telegram connection's alone.
  const telegram = await import("../../connections/telegram/mod.ts");
  const account = { apiRoot: options.apiRoot, token: options.token };
  const me = await telegram.checkTelegramToken(account);
  return await whileStopped(ctx, agent, async () => {
    const stateDir = ctx.paths.connectionDir(agent.id, "telegram");
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
    const code = telegram.newPairingCode();
    const expiresAt = clock.now() + PAIRING_MS;
    options.onCode({ code, expiresAt, bot: me.username });
    const owner = await telegram.pairTelegramOwner(account, {
      code,
      expiresAt,
      stateDir,
      clock,
      signal: options.signal,
    });
    await writeConnectionSecret(ctx.paths, agent.id, "telegram", "bot-token", options.token);
    const bot: TelegramBot = {
      api_root: options.apiRoot,
      bot: { id: me.id, username: me.username },
      owner: { id: owner.id, name: owner.name, ...(owner.username ? { username: owner.username } : {}) },
      paired_at: new Date(clock.now()).toISOString(),
    };
    const paired = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, bots: { ...s.bots, telegram: bot } }),
    );
    log.info("Telegram connected", { agent: agent.id, bot: me.username, owner: owner.id });
    return { agent: paired, bot };
  });
}

/** Disconnects a connection: its settings and its folder go; a running agent starts again without it. */
export async function disconnect(
  ctx: AgentContext,
  agent: AgentSettings,
  connection: string,
): Promise<AgentSettings> {
  if (!(connection in agent.bots)) {
    throw new LinkError(
      "REFUSED",
      `Cannot disconnect ${connection} from agent "${agent.name}": it is not connected`,
      {
        hint: "See its connections with `lnk agent status`",
      },
    );
  }
  const { agent: next } = await whileStopped(ctx, agent, async () => {
    const next = await updateSettings(ctx.paths, agent.id, (s) => {
      const { [connection]: _gone, ...bots } = s.bots;
      return { ...s, bots };
    });
    await Deno.remove(ctx.paths.connectionDir(agent.id, connection), { recursive: true }).catch(() => {});
    return { agent: next };
  });
  return next;
}
