/**
 * Who a message is from, in one grammar (ACS-2): the words `[access] message` lists and
 * `Link-From` carries. It imports nothing, so anything may read it.
 *
 * - `person:<connection>:<id>`: a person as a connection names them, with the workspace first
 *   where its user IDs are the workspace's own (`person:slack:T123:U456`).
 * - `chat:<connection>:<id>`: a chat the owner shared (a Telegram group, a Slack channel, a
 *   Discord channel as `<guild>:<channel>`): everyone in it who is not a bot is a member.
 * - `agent:<id>`: another agent, a teammate (TEAM), or the agent itself setting a message for
 *   later or a task for its subagent (SCH-2: never the owner).
 * - `subagent:<job id>`: the agent's own subagent, started by Link Scheduler's `start_subagent`
 *   as job `<job id>`, answering its parent (SCH-7).
 * - `webhook:<name>`: a post to one of the agent's webhooks (WHK-4, WHK-5), a stranger whatever its
 *   sift said.
 */
export type Principal =
  | { kind: "person" | "chat"; connection: string; id: string }
  | { kind: "agent"; id: string }
  | { kind: "subagent"; id: string }
  | { kind: "webhook"; name: string };

const CONNECTION = /^[a-z][a-z0-9-]{0,31}$/;
/** A webhook's name: a word of the URL's path, `/<name>`. */
export const WEBHOOK_NAME = /^[a-z][a-z0-9-]{0,31}$/;
/** An ID a platform gives: letters, digits, `-`, `_`, `+`, `.`, with `:` between the parts of one. */
const ID = /^[A-Za-z0-9+_.-]{1,64}(:[A-Za-z0-9+_.-]{1,64}){0,2}$/;
/** A job's id, as Link Scheduler makes it (core/scheduler/job.ts). */
const JOB_ID = /^j-[a-z0-9]{20}$/;

/** Reads a principal; undefined for a word that is not one. */
export function parsePrincipal(text: string): Principal | undefined {
  const [kind, ...rest] = text.split(":");
  if (kind === "agent") {
    const id = rest.join(":");
    return ID.test(id) && !id.includes(":") ? { kind, id } : undefined;
  }
  if (kind === "subagent") {
    const id = rest.join(":");
    return JOB_ID.test(id) ? { kind, id } : undefined;
  }
  if (kind === "webhook") {
    const name = rest.join(":");
    return WEBHOOK_NAME.test(name) ? { kind, name } : undefined;
  }
  if (kind !== "person" && kind !== "chat") return undefined;
  const [connection = "", ...parts] = rest;
  const id = parts.join(":");
  if (!CONNECTION.test(connection) || !ID.test(id)) return undefined;
  return { kind, connection, id };
}

/** Writes a principal as `[access] message` and `Link-From` hold it. */
export function formatPrincipal(principal: Principal): string {
  if (principal.kind === "agent" || principal.kind === "subagent") return `${principal.kind}:${principal.id}`;
  if (principal.kind === "webhook") return `webhook:${principal.name}`;
  return `${principal.kind}:${principal.connection}:${principal.id}`;
}

/** Who a connection answers besides its owner, read from `[access] message` (ACS-1, CON-8). */
export interface ChatAccess {
  /** The IDs, as the connection names them, of the chats shared with the agent. */
  chats: ReadonlySet<string>;
  /** The IDs of the people admitted one by one (Slack's allowlist by member ID). */
  persons: ReadonlySet<string>;
}

/** The chats and people of one connection in `[access] message`; other words are not its own. */
export function accessFor(connection: string, message: readonly string[]): ChatAccess {
  const chats = new Set<string>();
  const persons = new Set<string>();
  for (const word of message) {
    const p = parsePrincipal(word);
    if (
      !p || p.kind === "agent" || p.kind === "subagent" || p.kind === "webhook" || p.connection !== connection
    ) continue;
    (p.kind === "chat" ? chats : persons).add(p.id);
  }
  return { chats, persons };
}
