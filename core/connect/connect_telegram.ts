import { type Clock, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import type { AgentContext, AgentSettings } from "../agent/mod.ts";
import { pairConnection } from "./pair_connection.ts";
import { TelegramBot } from "./telegram_settings.ts";

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
  return await pairConnection(ctx, agent, {
    name: "telegram",
    botName: me.username,
    onCode: options.onCode,
    clock,
    signal: options.signal,
    pair: (wait) => telegram.pairTelegramOwner(account, wait),
    secrets: { "bot-token": options.token },
    settings: (owner, pairedAt): TelegramBot => ({
      api_root: options.apiRoot,
      bot: { id: me.id, username: me.username },
      owner: { id: owner.id, name: owner.name, ...(owner.username ? { username: owner.username } : {}) },
      paired_at: pairedAt,
    }),
  });
}
