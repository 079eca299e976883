import { type Clock, logger, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { PAIRING_MS } from "./known_connections.ts";
import { writeConnectionSecret } from "./connection_secret.ts";
import { SlackBot } from "./slack_settings.ts";
import { whileStopped } from "./while_stopped.ts";

const log = logger("connect");

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
  const chat = await import("../../connections/chat/mod.ts");
  const account = { apiUrl: options.apiUrl, botToken: options.botToken, appToken: options.appToken };
  const me = await slack.checkSlackTokens(account);
  return await whileStopped(ctx, agent, async () => {
    const stateDir = ctx.paths.connectionDir(agent.id, "slack");
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
    const code = chat.newPairingCode();
    const expiresAt = clock.now() + PAIRING_MS;
    options.onCode({ code, expiresAt, bot: me.botUserId });
    const owner = await slack.pairSlackOwner(account, {
      code,
      expiresAt,
      stateDir,
      clock,
      signal: options.signal,
    });
    await writeConnectionSecret(ctx.paths, agent.id, "slack", "bot-token", options.botToken);
    await writeConnectionSecret(ctx.paths, agent.id, "slack", "app-token", options.appToken);
    const bot: SlackBot = {
      api_url: options.apiUrl,
      team_id: me.teamId,
      bot_user_id: me.botUserId,
      owner: { id: owner.id, team_id: owner.teamId, name: owner.name },
      paired_at: new Date(clock.now()).toISOString(),
    };
    const paired = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, bots: { ...s.bots, slack: bot } }),
    );
    log.info("Slack connected", { agent: agent.id, team: me.teamId, owner: owner.id });
    return { agent: paired, bot };
  });
}
