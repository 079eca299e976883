import { type Clock, LinkError, logger, SYSTEM_CLOCK } from "../base/mod.ts";
import type { AgentContext, AgentSettings } from "../agent/mod.ts";
import { changeAccess } from "../agent/grants/mod.ts";
import { accessFor, formatPrincipal, type Principal } from "../spec/mod.ts";
import { type ConnectionName, isConnectionName, PAIRING_MS } from "./known_connections.ts";
import { type ConnectionAccount, connectionAccount } from "./connection_accounts.ts";
import { whileStopped } from "./while_stopped.ts";

const log = logger("connect");

/** The connections whose chats an owner can share (ACS-1, ACS-7): one contract for the three. */
export const SHAREABLE: readonly ConnectionName[] = ["telegram", "slack", "discord"];

/** Harnesses that keep a member's identity beside their message (ACS-3): Link Harness today. */
const SENDER_AWARE_HARNESSES = ["link"];

/** What `lnk agent share` was given. */
export interface ShareOptions {
  /** Admit one person by their ID on the platform, with no code (Slack's allowlist, CON-8). */
  person?: string;
  /** Told the one-time code once the agent is stopped, before the mention is waited for. */
  onCode(share: { code: string; expiresAt: number }): void;
  signal?: AbortSignal;
  clock?: Clock;
}

/** What a share admitted, and `[access] message` after it. */
export interface Shared {
  agent: AgentSettings;
  principal: string;
  title: string;
  message: readonly string[];
}

/**
 * Shares a chat of a connection (ACS-5), owner only: with the agent stopped (the connection's
 * bridge must be the platform's only reader), prints a one-time code that the owner mentions the
 * bot with in the group or channel within ten minutes; that chat is added to `[access] message`
 * as `chat:<connection>:<id>`, the file otherwise byte for byte as it was, and the agent starts
 * again. The connection's plugin never writes the spec; this command does. `person` admits one
 * person instead, by ID, with no code.
 */
export async function shareConnection(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
  options: ShareOptions,
): Promise<Shared> {
  const connection = await shareable(ctx, agent, name, "share");
  if (!SENDER_AWARE_HARNESSES.includes(agent.harness)) {
    throw new LinkError(
      "UNSUPPORTED",
      `Cannot share agent "${agent.name}": its harness, ${agent.harness}, cannot tell a member from its owner`,
      { hint: "Sharing needs a harness that keeps who wrote each message, such as Link Harness" },
    );
  }
  const clock = options.clock ?? SYSTEM_CLOCK;
  return await whileStopped(ctx, agent, async () => {
    const found = options.person === undefined
      ? await takeMention(ctx, agent, connection, options, clock)
      : personOf(connection, options.person);
    const principal = formatPrincipal(found.principal);
    const changed = await changeAccess(
      ctx,
      agent,
      (message) => message.includes(principal) ? [...message] : [...message, principal],
    );
    log.info("Shared", { agent: agent.id, connection: name, principal });
    return { agent, principal, title: found.title, message: changed.after };
  });
}

/** What `lnk agent unshare` took back, and `[access] message` after it. */
export interface Unshared {
  agent: AgentSettings;
  removed: readonly string[];
  message: readonly string[];
}

/**
 * Takes back what was shared on a connection (ACS-4), owner only: every chat and person of that
 * connection in `[access] message`, or the one `principal` named, with the agent stopped and
 * started again, so its bridge answers them no more.
 */
export async function unshareConnection(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
  only?: string,
): Promise<Unshared> {
  await shareable(ctx, agent, name, "unshare");
  return await whileStopped(ctx, agent, async () => {
    const removed: string[] = [];
    const changed = await changeAccess(ctx, agent, (message) =>
      message.filter((word) => {
        const ours = accessFor(name, [word]);
        const id = [...ours.chats, ...ours.persons][0];
        const gone = id !== undefined && (only === undefined || only === word || only === id);
        if (gone) removed.push(word);
        return !gone;
      }));
    if (only !== undefined && removed.length === 0) {
      throw new LinkError("REFUSED", `Cannot unshare "${only}": it is not shared on ${name}`, {
        hint:
          `See what is shared with \`lnk agent unshare ${name}\` to take back all of it, or the file ${changed.file}`,
      });
    }
    log.info("Unshared", { agent: agent.id, connection: name, removed });
    return { agent, removed, message: changed.after };
  });
}

async function shareable(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
  verb: "share" | "unshare",
): Promise<ConnectionAccount> {
  if (!isConnectionName(name)) {
    throw new LinkError("USAGE", `Cannot ${verb} "${name}": Link knows telegram, slack, discord and signal`, {
      hint: `Name one of ${SHAREABLE.join(", ")}`,
    });
  }
  if (!SHAREABLE.includes(name)) {
    throw new LinkError("UNSUPPORTED", `Cannot ${verb} ${name}: its chats cannot be shared`, {
      hint: `Chats of ${SHAREABLE.join(", ")} can be shared; ${name} answers its owner alone`,
    });
  }
  if (!(name in agent.bots)) {
    throw new LinkError("REFUSED", `Cannot ${verb} ${name}: agent "${agent.name}" is not connected to it`, {
      hint: `Connect it first with \`lnk agent connect ${name}\``,
    });
  }
  return await connectionAccount(ctx.paths, agent, name);
}

/** Waits, with the agent stopped, for the owner's mention of the bot with the code in a chat. */
async function takeMention(
  ctx: AgentContext,
  agent: AgentSettings,
  connection: ConnectionAccount,
  options: ShareOptions,
  clock: Clock,
): Promise<{ principal: Principal; title: string }> {
  const chat = await import("../../connections/chat/mod.ts");
  const code = chat.newPairingCode();
  const expiresAt = clock.now() + PAIRING_MS;
  const stateDir = ctx.paths.connectionDir(agent.id, connection.name);
  options.onCode({ code, expiresAt });
  const wait = { code, expiresAt, stateDir, clock, signal: options.signal };
  let shared: { chat: string; title: string };
  switch (connection.name) {
    case "telegram": {
      const telegram = await import("../../connections/telegram/mod.ts");
      shared = await telegram.pairTelegramShare(connection.account, { ...wait, ownerId: connection.ownerId });
      break;
    }
    case "slack": {
      const slack = await import("../../connections/slack/mod.ts");
      shared = await slack.pairSlackShare(connection.account, { ...wait, ownerId: connection.ownerId });
      break;
    }
    case "discord": {
      const discord = await import("../../connections/discord/mod.ts");
      shared = await discord.pairDiscordShare(connection.account, { ...wait, ownerId: connection.ownerId });
      break;
    }
    case "signal":
      throw new LinkError("UNSUPPORTED", "Cannot share signal: its chats cannot be shared");
  }
  return { principal: { kind: "chat", connection: connection.name, id: shared.chat }, title: shared.title };
}

/** One person admitted by ID: Slack's IDs are the workspace's own, so its team goes first (ACS-2). */
function personOf(connection: ConnectionAccount, id: string): { principal: Principal; title: string } {
  const full = connection.name === "slack" && !id.includes(":") ? `${connection.bot.team_id}:${id}` : id;
  const principal: Principal = { kind: "person", connection: connection.name, id: full };
  if (accessFor(connection.name, [formatPrincipal(principal)]).persons.size === 0) {
    throw new LinkError(
      "USAGE",
      `Cannot share with "${id}": it is not an ID ${connection.name} gives people`,
      {
        hint: "Give the person's ID as the platform shows it (a Slack member ID such as U0123ABCD)",
      },
    );
  }
  return { principal, title: formatPrincipal(principal) };
}
