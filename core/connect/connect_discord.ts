import { type Clock, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings } from "../agent/mod.ts";
import { DiscordBot } from "./discord_settings.ts";
import { pairConnection } from "./pair_connection.ts";

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
  const account = { apiUrl: options.apiUrl, token: options.token };
  const me = await discord.checkDiscordToken(account);
  return await pairConnection(ctx, agent, {
    name: "discord",
    botName: me.username,
    onCode: options.onCode,
    clock,
    signal: options.signal,
    pair: (wait) => discord.pairDiscordOwner(account, wait),
    secrets: { "bot-token": options.token },
    settings: (owner, pairedAt): DiscordBot => ({
      api_url: options.apiUrl,
      bot: { id: me.id, username: me.username },
      owner: { id: owner.id, name: owner.name },
      paired_at: pairedAt,
    }),
  });
}
