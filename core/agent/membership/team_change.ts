import { join } from "node:path";
import { atomicWrite, LinkError, lockFile, readTextIfExists } from "../../base/mod.ts";
import { DEFAULT_SANDBOX_TOML, editSandboxToml, parseSandboxSpec } from "../../../sandbox/mod.ts";
import {
  changeTeam,
  checkTeamName,
  createTeam,
  readTeam,
  readTeams,
  type Team,
  type TeamMember,
} from "../../teams/mod.ts";
import { listAgents } from "../agents.ts";
import { agentStatus } from "../agent_status.ts";
import type { AgentContext } from "../context.ts";
import { layoutOf } from "../layout.ts";
import { loadMachine } from "../machine.ts";
import { standInOwner } from "../owner.ts";
import type { AgentSettings } from "../settings.ts";
import { stopAgent } from "../stop_agent.ts";
import { startAgent } from "../launch/mod.ts";

/** A member's grant of its team's folder (TEAM-11): the folders it reads and writes, or all of it. */
export interface TeamGrant {
  readonly read: readonly string[];
  readonly write: readonly string[];
}

/** What `lnk agent team add` or `remove` did. */
export interface TeamChanged {
  readonly team: Team;
  /** The member's sandbox file, whose `[teams.<team>]` was written. */
  readonly file: string;
  /** The running members restarted (TEAM-9), by name. */
  readonly restarted: readonly string[];
}

/**
 * Makes a team (`lnk agent team create`): its file, and its folder made 0700. Its owner is the
 * owner of this machine's agents (a team with no member takes its first member's: TEAM-3).
 */
export async function createTeamFor(
  ctx: AgentContext,
  team: string,
  options: { folder?: string } = {},
): Promise<Team> {
  checkTeamName(team);
  const owners = [...new Set((await listAgents(ctx)).map((a) => a.owner))];
  const owner = owners.length === 1 ? owners[0]! : standInOwner(await loadMachine(ctx.paths));
  return await createTeam(ctx.paths, team, { owner, folder: options.folder });
}

/**
 * Puts an agent on a team, or changes its name, purpose or grant there (`lnk agent team add`):
 * refused when the team's members are another owner's (TEAM-3). Its sandbox file's
 * `[teams.<team>]` grants the whole folder unless `grant` names folders (TEAM-11, TEAM-13), the
 * rest of the file kept byte for byte. Running members are restarted, so each starts with the
 * team as it is now (TEAM-9); stopped ones stay stopped.
 */
export async function addToTeam(
  ctx: AgentContext,
  team: string,
  agent: AgentSettings,
  member: { name: string; purpose: string; grant?: TeamGrant },
): Promise<TeamChanged> {
  const before = await mustReadTeam(ctx, team);
  checkOwner(before, agent);
  const entry: TeamMember = { id: agent.id, name: member.name, purpose: member.purpose };
  // The folders it is granted are there at its next start, so the grant holds (a missing one is skipped).
  for (const name of [...member.grant?.read ?? [], ...member.grant?.write ?? []]) {
    if (name.startsWith("/") || name.split("/").includes("..")) continue; // refused below, naming the key
    await Deno.mkdir(join(before.folder, name), { recursive: true, mode: 0o700 });
  }
  const file = await writeTeamGrant(ctx, agent, team, member.grant ?? "all");
  const after = await changeTeam(ctx.paths, team, (now) => {
    checkOwner(now, agent);
    const taken = now.member.find((m) => m.name === entry.name && m.id !== agent.id);
    if (taken) {
      throw new LinkError(
        "CONFLICT",
        `Cannot add agent "${agent.name}" to team "${team}" as "${entry.name}": another member has that name`,
        { hint: `Pick another --name, or run \`lnk agent team show ${team}\`` },
      );
    }
    const at = now.member.findIndex((m) => m.id === agent.id);
    const members = at < 0 ? [...now.member, entry] : now.member.map((m, i) => (i === at ? entry : m));
    return { member: members, owner: now.member.length === 0 ? agent.owner : undefined };
  });
  const restarted = await restartMembers(ctx, [...before.member, ...after.member].map((m) => m.id));
  return { team: after, file, restarted };
}

/**
 * Takes an agent off a team (`lnk agent team remove`), and its `[teams.<team>]` out of its sandbox
 * file; its teammates' doors refuse its next message at once (TEAM-7). Running members, the
 * agent among them, are restarted (TEAM-9).
 */
export async function removeFromTeam(
  ctx: AgentContext,
  team: string,
  agent: AgentSettings,
): Promise<TeamChanged> {
  const before = await mustReadTeam(ctx, team);
  const after = await changeTeam(ctx.paths, team, (now) => {
    if (!now.member.some((m) => m.id === agent.id)) {
      throw new LinkError(
        "INVALID",
        `Cannot remove agent "${agent.name}" from team "${team}": it is not on it`,
        {
          hint: `Run \`lnk agent team show ${team}\` to see its members`,
        },
      );
    }
    return { member: now.member.filter((m) => m.id !== agent.id) };
  });
  const file = await writeTeamGrant(ctx, agent, team, undefined);
  const restarted = await restartMembers(ctx, before.member.map((m) => m.id));
  return { team: after, file, restarted };
}

/**
 * Takes a removed agent off every team it is on (`lnk agent remove`), so a teammate's send list
 * and door no longer name it, and a restored agent comes back on none. Its sandbox file, put aside
 * with its folders, keeps its `[teams.<team>]`, which gives nothing off the team (TEAM-13). Its
 * running teammates are restarted, as their send list is fixed for a start (TEAM-9).
 */
export async function takeOffTeams(
  ctx: AgentContext,
  agent: Pick<AgentSettings, "id">,
): Promise<{ teams: string[]; restarted: string[] }> {
  const teams: string[] = [];
  const teammates = new Set<string>();
  for (const team of await readTeams(ctx.paths)) {
    if (!team.member.some((m) => m.id === agent.id)) continue;
    const after = await changeTeam(ctx.paths, team.name, (now) => ({
      member: now.member.filter((m) => m.id !== agent.id),
    }));
    for (const m of after.member) teammates.add(m.id);
    teams.push(team.name);
  }
  return { teams: teams.sort(), restarted: await restartMembers(ctx, [...teammates]) };
}

async function mustReadTeam(ctx: AgentContext, team: string): Promise<Team> {
  checkTeamName(team);
  const found = await readTeam(ctx.paths, team);
  if (found) return found;
  throw new LinkError("CONFIG_INVALID", `Cannot find team "${team}"`, {
    hint: `Run \`lnk agent team list\` to see the teams, or \`lnk agent team create ${team}\``,
  });
}

/** All members are one owner's (TEAM-3): an agent of another owner is refused, both named. */
function checkOwner(team: Team, agent: AgentSettings): void {
  if (team.member.length === 0 || team.owner === agent.owner) return;
  throw new LinkError(
    "REFUSED",
    `Cannot add agent "${agent.name}" to team "${team.name}": its owner is "${agent.owner}", ` +
      `and the team's members are "${team.owner}"'s`,
    { hint: "A team is one owner's agents: make a team of that owner's agents instead" },
  );
}

/**
 * Writes `[teams.<team>]` in the agent's Config/sandbox.toml, under the lock `lnk agent allow`
 * takes: `all = true`, or the folders it reads and writes, or nothing (the table taken out). Every
 * other line and comment is kept; the result is read back as the next start reads it.
 */
async function writeTeamGrant(
  ctx: AgentContext,
  agent: AgentSettings,
  team: string,
  grant: TeamGrant | "all" | undefined,
): Promise<string> {
  const file = layoutOf(ctx.paths, agent).sandboxToml;
  await Deno.mkdir(ctx.paths.agentState(agent.id), { recursive: true });
  using _lock = await lockFile(`${ctx.paths.agentState(agent.id)}/sandbox.toml.lock`);
  const text = (await readTextIfExists(file)) ?? DEFAULT_SANDBOX_TOML;
  const table = ["teams", team];
  const values = grant === undefined
    ? { all: undefined, read: undefined, write: undefined }
    : grant === "all"
    ? { all: true, read: undefined, write: undefined }
    : { all: undefined, read: [...grant.read], write: [...grant.write] };
  let next = editSandboxToml(
    text,
    Object.entries(values).map(([key, value]) => ({ table, key, value })),
    file,
  );
  if (grant === undefined) next = withoutEmptyTable(next, team);
  if (next === text) return file;
  parseSandboxSpec(next, file);
  await atomicWrite(file, next, { mode: 0o600 });
  return file;
}

/** Takes out a `[teams.<team>]` header left with no key under it. */
function withoutEmptyTable(text: string, team: string): string {
  const lines = text.split("\n");
  const quoted = JSON.stringify(team);
  const at = lines.findIndex((line) => {
    const t = line.replace(/#.*$/, "").trim();
    return t === `[teams.${team}]` || t === `[teams.${quoted}]`;
  });
  if (at < 0) return text;
  let end = at + 1;
  while (end < lines.length && /^\s*(#.*)?$/.test(lines[end]!)) end++;
  if (end < lines.length && !/^\s*\[/.test(lines[end]!)) return text;
  const kept = [...lines.slice(0, at), ...lines.slice(at + 1)];
  // A blank line the table was set apart by goes with it.
  if (at > 0 && kept[at - 1] === "" && (kept[at] === "" || at === kept.length)) kept.splice(at - 1, 1);
  return kept.join("\n");
}

/** Restarts the members that run (awake or asleep), by ID, each once; stopped ones stay stopped (TEAM-9). */
async function restartMembers(ctx: AgentContext, ids: readonly string[]): Promise<string[]> {
  const wanted = new Set(ids);
  const restarted: string[] = [];
  for (const agent of (await listAgents(ctx)).filter((a) => wanted.has(a.id))) {
    const { state } = await agentStatus(ctx, agent);
    if (state !== "running" && state !== "asleep") continue;
    await stopAgent(ctx, agent);
    await startAgent(ctx, agent).catch((err) => {
      throw new LinkError(
        "SERVICE_FAILED",
        `Cannot start agent "${agent.name}" again after its team changed`,
        {
          hint: "Start it with `lnk agent start`",
          cause: err,
        },
      );
    });
    restarted.push(agent.name);
  }
  return restarted;
}
