import { type Clock, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings } from "../agent/mod.ts";
import { SlackBot } from "./slack_settings.ts";
import { pairConnection } from "./pair_connection.ts";

/** What `lnk agent connect slack` was given. */
export interface ConnectSlackOptions {
  botToken: Secret;
  appToken: Secret;
  apiUrl: string;
  /** Told the one-time code once both tokens check and the agent is stopped, before pairing waits. */
  onCode(pairing: { code: string; expiresAt: number; bot: string }): void;
  signal?: AbortSignal;
  clock?: Clock;
}

/**
 * Connects Slack (Socket Mode): checks the bot token (auth.test) and the app token
 * (apps.connections.open), stops the agent while it pairs, takes as owner whoever sends the
 * one-time code in a direct message within ten minutes (CON-6), keeps both tokens in the
 * connection's folder (never the sandbox's, CON-12) and `bots.slack` in the settings.
 */
export async function connectSlack(
  ctx: AgentContext,
  agent: AgentSettings,
  options: ConnectSlackOptions,
): Promise<{ agent: AgentSettings; bot: SlackBot }> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  // Loaded here, never with the bridge: Slack's clients are the Slack connection's alone.
  const slack = await import("../../connections/slack/mod.ts");
  const account = { apiUrl: options.apiUrl, botToken: options.botToken, appToken: options.appToken };
  const me = await slack.checkSlackTokens(account);
  return await pairConnection(ctx, agent, {
    name: "slack",
    botName: me.botUserId,
    onCode: options.onCode,
    clock,
    signal: options.signal,
    pair: (wait) => slack.pairSlackOwner(account, wait),
    secrets: { "bot-token": options.botToken, "app-token": options.appToken },
    settings: (owner, pairedAt): SlackBot => ({
      api_url: options.apiUrl,
      team_id: me.teamId,
      bot_user_id: me.botUserId,
      owner: { id: owner.id, team_id: owner.teamId, name: owner.name },
      paired_at: pairedAt,
    }),
  });
}
