import { type AgentKey, type LinkPaths, logger } from "../base/mod.ts";
import { type AgentSettings, writeConnectionState } from "../agent/mod.ts";
import { CARRIED, isConnectionName } from "./known_connections.ts";
import { TelegramBot } from "./telegram_settings.ts";
import { SlackBot } from "./slack_settings.ts";
import { readConnectionSecret } from "./connection_secret.ts";

const log = logger("connections");

/** What the bridge carries a connection with: the agent, its door's port and its key. */
export interface CarryOptions {
  paths: LinkPaths;
  agent: AgentSettings;
  key: AgentKey;
  signal: AbortSignal;
}

/**
 * Carries one connection of the agent (CON-9, CON-11) in this process, a `lnk connection bridge`
 * its agent's bridge started, outside the sandbox, holding the token (CON-12). Each owner message
 * goes to the agent's port as a caller proving the agent's key, so a sleeping agent wakes at the
 * door. It says where it stands in its connection's folder for `lnk agent status`; one that fails
 * is logged and said failed, and its bridge carries on.
 */
export async function carryConnection(options: CarryOptions, name: string): Promise<void> {
  const { agent } = options;
  const say = (state: "polling" | "connected" | "reconnecting" | "failed", why?: string) =>
    writeConnectionState(options.paths, agent.id, name, {
      state,
      ...(why ? { why } : {}),
      at: new Date().toISOString(),
    }).catch((err) =>
      log.warn("Cannot keep a connection's state", { agent: agent.id, connection: name, err })
    );
  try {
    if (!isConnectionName(name) || !CARRIED.includes(name)) {
      await say("failed", `Link does not carry ${name} yet`);
      return;
    }
    if (name === "slack") await carrySlack(options, say);
    else await carryTelegram(options, say);
  } catch (err) {
    if (options.signal.aborted) return;
    log.error("A connection stopped", { agent: agent.id, connection: name, err });
    await say("failed", err instanceof Error ? err.message : String(err));
  }
}

async function carryTelegram(
  options: CarryOptions,
  say: (state: "polling" | "connected" | "reconnecting" | "failed", why?: string) => Promise<void>,
): Promise<void> {
  const { agent, paths } = options;
  const bot = TelegramBot.parse(agent.bots.telegram);
  const token = await readConnectionSecret(paths, agent.id, "telegram", "bot-token");
  if (!token) {
    await say("failed", "its token is missing: connect it again with `lnk agent connect telegram`");
    return;
  }
  const telegram = await import("../../connections/telegram/mod.ts");
  await telegram.carryTelegram({
    account: { apiRoot: bot.api_root, token },
    stateDir: paths.connectionDir(agent.id, "telegram"),
    ownerId: bot.owner.id,
    endpoint: { port: agent.ports.endpoint },
    caller: { agentId: agent.id, agentName: agent.name, key: options.key },
    signal: options.signal,
    onState: (s) => void say(s.state, s.why),
  });
}

async function carrySlack(
  options: CarryOptions,
  say: (state: "polling" | "connected" | "reconnecting" | "failed", why?: string) => Promise<void>,
): Promise<void> {
  const { agent, paths } = options;
  const bot = SlackBot.parse(agent.bots.slack);
  const botToken = await readConnectionSecret(paths, agent.id, "slack", "bot-token");
  const appToken = await readConnectionSecret(paths, agent.id, "slack", "app-token");
  if (!botToken || !appToken) {
    await say("failed", "its tokens are missing: connect it again with `lnk agent connect slack`");
    return;
  }
  const slack = await import("../../connections/slack/mod.ts");
  await slack.carrySlack({
    account: { apiUrl: bot.api_url, botToken, appToken },
    stateDir: paths.connectionDir(agent.id, "slack"),
    ownerId: bot.owner.id,
    endpoint: { port: agent.ports.endpoint },
    caller: { agentId: agent.id, agentName: agent.name, key: options.key },
    signal: options.signal,
    onState: (s) => void say(s.state, s.why),
  });
}
