import { type AgentKey, isLinkError, type LinkPaths, logger } from "../base/mod.ts";
import { type AgentSettings, loadAgentConfig, writeConnectionState } from "../agent/mod.ts";
import { accessFor, type ChatAccess } from "../spec/mod.ts";
import { CARRIED, isConnectionName } from "./known_connections.ts";
import { type ConnectionAccount, connectionAccount } from "./connection_accounts.ts";

const log = logger("connections");

/** What the bridge carries a connection with: the agent, its door's port and its key. */
export interface CarryOptions {
  paths: LinkPaths;
  agent: AgentSettings;
  key: AgentKey;
  signal: AbortSignal;
}

type ConnectionState = "polling" | "connected" | "reconnecting" | "failed";

/**
 * Carries one connection of the agent (CON-9, CON-11) in this process, a `lnk connection bridge`
 * its agent's bridge started, outside the sandbox, holding the token (CON-12). Each owner message
 * goes to the agent's port as a caller proving the agent's key, so a sleeping agent wakes at the
 * door; the chats and people `[access] message` names for it are answered as members (ACS-1,
 * CON-8), read once at its start (sharing restarts the agent). It says where it stands in its
 * connection's folder for `lnk agent status`; one that fails is logged and said failed, and its
 * bridge carries on.
 */
export async function carryConnection(options: CarryOptions, name: string): Promise<void> {
  const { agent, paths } = options;
  let was: { state: ConnectionState; since: string } | undefined;
  const say = (state: ConnectionState, why?: string) => {
    const at = new Date().toISOString();
    if (was?.state !== state) {
      was = { state, since: at };
      saidInLog(name, state, why, bot);
    }
    return writeConnectionState(paths, agent.id, name, {
      state,
      ...(why ? { why } : {}),
      at,
      ...(was.since === at ? {} : { since: was.since }),
    }).catch((err) =>
      log.warn("Cannot keep a connection's state", { agent: agent.id, connection: name, err })
    );
  };
  let bot: string | undefined; // once its account is read
  try {
    if (!isConnectionName(name) || !CARRIED.includes(name)) {
      await say("failed", `Link does not carry ${name} yet`);
      return;
    }
    let connection: ConnectionAccount;
    try {
      connection = await connectionAccount(paths, agent, name);
      bot = botName(connection);
    } catch (err) {
      if (!isLinkError(err, "CONFIG_INVALID")) throw err;
      await say("failed", `${err.message}: ${err.hint}`);
      return;
    }
    const access = accessFor(name, (await loadAgentConfig(paths, agent)).sandbox.access.message);
    await carry(connection, {
      stateDir: paths.connectionDir(agent.id, name),
      access,
      endpoint: { port: agent.ports.endpoint },
      caller: { agentId: agent.id, agentName: agent.name, key: options.key },
      signal: options.signal,
      onState: (s: { state: ConnectionState; why?: string }) => void say(s.state, s.why),
    });
  } catch (err) {
    if (options.signal.aborted) return;
    // say() writes its one line of the log: Stopped, and why.
    await say("failed", err instanceof Error ? err.message : String(err));
  }
}

/** A connection's change of state as a line of its log: connected, reconnecting and why, stopped and why. */
function saidInLog(
  platform: string,
  state: ConnectionState,
  why: string | undefined,
  bot: string | undefined,
) {
  const fields = { platform, ...(bot ? { bot } : {}), ...(why ? { why } : {}) };
  if (state === "connected" || state === "polling") log.info("Connected", { ...fields, state });
  else if (state === "reconnecting") log.warn("Reconnecting", fields);
  else log.error("Stopped", fields);
}

/** The bot's name as its platform shows it, for the log. */
function botName(connection: ConnectionAccount): string {
  switch (connection.name) {
    case "telegram":
    case "discord":
      return connection.bot.bot.username;
    case "slack":
      return connection.bot.bot_user_id;
    case "signal":
      return connection.bot.number;
  }
}

interface Carrying {
  stateDir: string;
  access: ChatAccess;
  endpoint: { port: number };
  caller: { agentId: string; agentName: string; key: AgentKey };
  signal: AbortSignal;
  onState(state: { state: ConnectionState; why?: string }): void;
}

/** Each connection's carrier, its client loaded here alone (tests/wake_modules_test.ts). */
async function carry(connection: ConnectionAccount, with_: Carrying): Promise<void> {
  switch (connection.name) {
    case "telegram": {
      const telegram = await import("../../connections/telegram/mod.ts");
      return await telegram.carryTelegram({
        ...with_,
        account: connection.account,
        ownerId: connection.ownerId,
      });
    }
    case "slack": {
      const slack = await import("../../connections/slack/mod.ts");
      return await slack.carrySlack({ ...with_, account: connection.account, ownerId: connection.ownerId });
    }
    case "discord": {
      const discord = await import("../../connections/discord/mod.ts");
      return await discord.carryDiscord({
        ...with_,
        account: connection.account,
        ownerId: connection.ownerId,
      });
    }
    case "signal": {
      const signal = await import("../../connections/signal/mod.ts");
      return await signal.carrySignal({
        ...with_,
        account: connection.account,
        ownerNumber: connection.ownerId,
      });
    }
  }
}
