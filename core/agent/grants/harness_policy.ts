import { join } from "node:path";
import { type LinkPaths, readTextIfExists } from "../../base/mod.ts";
import {
  applyGrants,
  DEFAULT_SANDBOX_TOML,
  type FoldersMode,
  type GrantFlags,
  parseSandboxSpec,
  type SandboxAgent,
  type SandboxInput,
  type SandboxSpec,
  type SpecSource,
  VISIBLE_COLLECTIONS,
} from "../../../sandbox/mod.ts";
import { KNOWN } from "../../adapters/mod.ts";
import { listAgents } from "../agents.ts";
import type { AgentContext } from "../context.ts";
import { type AgentLayout, layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";
import { sandboxIdentity } from "../sandbox_uid.ts";
import { type HarnessLayer, loadHarnessLayer } from "./harness_layer.ts";
import { type SandboxIdentity } from "../../spec/mod.ts";
import { readTeams } from "../../teams/mod.ts";

/** What an agent's harness runs with: both grant layers, its folders and its own home. */
export interface HarnessPolicy {
  readonly agent: AgentSettings;
  /** The agent's grants with the harness's layer on top: what the harness's sandbox holds. */
  readonly spec: SandboxSpec;
  /** The agent's own layer (Config/sandbox.toml, GRT-1). */
  readonly agentSpec: SandboxSpec;
  /** The agent's sandbox file and its text, so a refusal names its line (GRT-5). */
  readonly source: SpecSource;
  /** The harness's layer (GRT-2), when it has one. */
  readonly layer: HarnessLayer | undefined;
  /** "layout" for a harness that keeps to it ([files] holds), "home" for one from outside (LAY-8). */
  readonly folders: FoldersMode;
  /** Link Harness writes Agent/chats itself; its tools never do (LAY-7). */
  readonly harnessWritesChats: boolean;
  /** Link Harness keeps the agent's notes in Agent/memory (its notes tools); no other harness sees it. */
  readonly harnessWritesNotes: boolean;
  readonly layout: AgentLayout;
  readonly sandboxAgent: SandboxAgent;
  /** The harness's home for this agent: writable, its HOME inside. */
  readonly harnessHome: string;
  /** Other agents' Homes kept outside ~/Link (picked with --files): hidden like the rest of theirs. */
  readonly hide: readonly string[];
  /** As root: the agent's own unprivileged uid its sandboxes run as (SBX-1). */
  readonly identity?: SandboxIdentity;
  /** The folder of each team the agent is on now, for its `[teams.<team>]` grants (TEAM-11). */
  readonly teams: Readonly<Record<string, string>>;
}

/** One agent's home of its harness (GRT-12): `~/.lnk/agents/<id>/harnesses/<harness>`. */
export function harnessHomeOf(paths: LinkPaths, agent: AgentSettings): string {
  return join(paths.agentState(agent.id), "harnesses", agent.harness);
}

/** What a sandbox of the agent's harness is made with, as its policy says (planSandbox's input). */
export function policySandboxFields(
  policy: HarnessPolicy,
): Pick<
  SandboxInput,
  | "agent"
  | "folders"
  | "harnessWritesChats"
  | "harnessWritesNotes"
  | "harnessHome"
  | "hide"
  | "identity"
  | "teams"
> {
  return {
    agent: policy.sandboxAgent,
    folders: policy.folders,
    harnessWritesChats: policy.harnessWritesChats,
    harnessWritesNotes: policy.harnessWritesNotes,
    harnessHome: policy.harnessHome,
    hide: policy.hide,
    identity: policy.identity,
    teams: policy.teams,
  };
}

/**
 * Builds the policy an agent's harness gets (SBX-6, SBX-10): the agent's grants, which follow it
 * to any harness (GRT-1), plus the layer of the harness it runs, held only while that harness runs
 * (GRT-2). Built from the files each time, never read from a running agent. A missing sandbox file
 * reads as the defaults a new agent gets.
 */
export async function harnessPolicy(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { needs?: GrantFlags } = {},
): Promise<HarnessPolicy> {
  const paths = ctx.paths;
  const layout = layoutOf(paths, agent);
  const text = (await readTextIfExists(layout.sandboxToml)) ?? DEFAULT_SANDBOX_TOML;
  const agentSpec = parseSandboxSpec(text, layout.sandboxToml);
  const layer = await loadHarnessLayer(paths, agent.harness);
  const withLayer = layer
    ? applyGrants(agentSpec, widening(agentSpec, layer.flags), "allow").spec
    : agentSpec;
  // A built-in adapter's needs, granted as the layer's are, for this start alone (docs/adapters.md).
  const layered = options.needs
    ? applyGrants(withLayer, widening(withLayer, options.needs), "allow").spec
    : withLayer;
  const teams = await teamsOf(paths, agent);
  const spec = grantedTeamsOnly(layered, teams.mine);
  const known = KNOWN[agent.harness];
  const keepsLayout = (known?.builtIn ?? false) && !known?.foreign;
  return {
    agent,
    spec,
    agentSpec,
    source: { path: layout.sandboxToml, text },
    layer,
    folders: keepsLayout ? "layout" : "home",
    harnessWritesChats: agent.harness === "link",
    harnessWritesNotes: agent.harness === "link",
    layout,
    sandboxAgent: { id: agent.id, name: agent.name, home: layout.home, agentDir: layout.agent },
    harnessHome: harnessHomeOf(paths, agent),
    hide: [...await otherHomes(ctx, agent), ...teams.elsewhere],
    identity: await sandboxIdentity(paths, agent.id),
    teams: teams.mine,
  };
}

/**
 * The folder of each team the agent is on, and every team's folder kept outside ~/Link/Teams
 * (hidden like ~/Link/Teams, the granted folders of the agent's own mounted back: TEAM-12). Read
 * from the team files at each start (TEAM-9); a team whose file does not read gives nothing.
 */
async function teamsOf(
  paths: LinkPaths,
  agent: AgentSettings,
): Promise<{ mine: Record<string, string>; elsewhere: string[] }> {
  const mine: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const team of await readTeams(paths)) {
    const folder = team.folder.replace(/\/+$/, "");
    if (folder !== paths.teamFolders && !folder.startsWith(`${paths.teamFolders}/`)) elsewhere.push(folder);
    if (team.owner === agent.owner && team.member.some((m) => m.id === agent.id)) mine[team.name] = folder;
  }
  return { mine, elsewhere };
}

/** A grant of a team the agent is not on gives nothing (TEAM-13: the grant needs the membership). */
export function grantedTeamsOnly(spec: SandboxSpec, mine: Readonly<Record<string, string>>): SandboxSpec {
  return {
    ...spec,
    teams: Object.fromEntries(Object.entries(spec.teams).filter(([team]) => mine[team] !== undefined)),
  };
}

async function otherHomes(ctx: AgentContext, agent: AgentSettings): Promise<string[]> {
  return (await listAgents(ctx))
    .filter((other) => other.id !== agent.id && other.home !== undefined)
    .map((other) => layoutOf(ctx.paths, other).home)
    .filter((home) => home !== ctx.paths.agentFolders && !home.startsWith(`${ctx.paths.agentFolders}/`));
}

const LEVEL = { none: 0, read: 1, write: 2 } as const;
const COLLECTIONS: readonly string[] = VISIBLE_COLLECTIONS;

/** A harness's layer adds to the agent's grants, never takes away (GRT-24): [files] only rises. */
function widening(spec: SandboxSpec, flags: GrantFlags): GrantFlags {
  if (!flags.files) return flags;
  const files = flags.files.filter((entry) => {
    const at = entry.lastIndexOf("=");
    const level = entry.slice(at + 1) as keyof typeof LEVEL;
    const folder = entry.slice(0, at);
    const current = spec.files[folder] ?? (COLLECTIONS.includes(folder) ? "none" : spec.files["."]) ??
      "none";
    return (LEVEL[level] ?? 0) > LEVEL[current];
  });
  return { ...flags, files };
}
