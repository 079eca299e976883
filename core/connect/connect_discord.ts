import { type Clock, logger, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { PAIRING_MS } from "./known_connections.ts";
import { writeConnectionSecret } from "./connection_secret.ts";
import { DiscordBot } from "./discord_settings.ts";
import { whileStopped } from "./while_stopped.ts";

const log = logger("connect");

/** What `lnk agent connect discord` was given. */
export interface ConnectDiscordOptions {
  token: Secret;
  apiUrl: string;
  /** Told the one-time code once the token checks and the agent is stopped, before pairing waits. */
  onCode(pairing: { code: string; expiresAt: number; bot: string }): void;
  signal?: AbortSignal;
  clock?: Clock;
}

/**
 * Connects Discord: checks the bot's token (users/@me), stops the agent while it pairs, takes as
 * owner whoever sends the one-time code in a direct message within ten minutes (CON-6), keeps the
 * token in the connection's folder (never the sandbox's, CON-12) and `bots.discord` in the settings.
 */
export async function connectDiscord(
  ctx: AgentContext,
  agent: AgentSettings,
  options: ConnectDiscordOptions,
): Promise<{ agent: AgentSettings; bot: DiscordBot }> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  // Loaded here, never with the bridge: Discord's clients are the Discord connection's alone.
  const discord = await import("../../connections/discord/mod.ts");
  const chat = await import("../../connections/chat/mod.ts");
  const account = { apiUrl: options.apiUrl, token: options.token };
  const me = await discord.checkDiscordToken(account);
  return await whileStopped(ctx, agent, async () => {
    const stateDir = ctx.paths.connectionDir(agent.id, "discord");
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
    const code = chat.newPairingCode();
    const expiresAt = clock.now() + PAIRING_MS;
    options.onCode({ code, expiresAt, bot: me.username });
    const owner = await discord.pairDiscordOwner(account, {
      code,
      expiresAt,
      stateDir,
      clock,
      signal: options.signal,
    });
    await writeConnectionSecret(ctx.paths, agent.id, "discord", "bot-token", options.token);
    const bot: DiscordBot = {
      api_url: options.apiUrl,
      bot: { id: me.id, username: me.username },
      owner: { id: owner.id, name: owner.name },
      paired_at: new Date(clock.now()).toISOString(),
    };
    const paired = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, bots: { ...s.bots, discord: bot } }),
    );
    log.info("Discord connected", { agent: agent.id, bot: me.username, owner: owner.id });
    return { agent: paired, bot };
  });
}
