import { z } from "zod";
import { LinkError, parseToml, readTextIfExists } from "../base/mod.ts";
import type { LinkPaths } from "../base/mod.ts";
import { layoutOf } from "./layout.ts";
import type { AgentSettings } from "./settings.ts";
import { parseSandboxSpec, parseSpec, type SandboxSpec, Spec } from "../spec/mod.ts";
import { readTeams, type Team } from "../teams/mod.ts";

/** An agent's spec and grants, read and checked; an error names the file, line and key. */
export interface AgentConfig {
  spec: Spec;
  sandbox: SandboxSpec;
}

/**
 * Reads an agent's Config/spec.toml and Config/sandbox.toml (a missing file reads as the
 * defaults). The `[spec]` of each team it is on lies beneath its own (TEAM-1, TEAM-8): a key its
 * own file sets wins, then the team first by name; Link's defaults fill the rest.
 */
export async function loadAgentConfig(paths: LinkPaths, settings: AgentSettings): Promise<AgentConfig> {
  const layout = layoutOf(paths, settings);
  const text = (await readTextIfExists(layout.specToml)) ?? "";
  const own = parseSpec(text, layout.specToml);
  const teams = (await readTeams(paths)).filter((t) =>
    t.spec !== undefined && t.owner === settings.owner && t.member.some((m) => m.id === settings.id)
  );
  const spec = teams.length === 0 ? own : layered(parseToml(text, layout.specToml), teams);
  const sandbox = parseSandboxSpec((await readTextIfExists(layout.sandboxToml)) ?? "", layout.sandboxToml);
  return { spec, sandbox };
}

/** The agent's own keys over each team's `[spec]`, each team's checked as a spec naming its file. */
function layered(own: Record<string, unknown>, teams: readonly Team[]): Spec {
  let merged: Record<string, unknown> = own;
  for (const team of teams) {
    const checked = Spec.safeParse(team.spec);
    if (!checked.success) {
      throw new LinkError(
        "CONFIG_INVALID",
        `Cannot load the [spec] of team "${team.name}" in "${team.path}"`,
        {
          hint: `Fix these keys of its [spec]:\n${z.prettifyError(checked.error)}`,
        },
      );
    }
    merged = beneath(merged, team.spec as Record<string, unknown>);
  }
  return Spec.parse(merged);
}

/** `over`, with what only `under` has filled in, table by table. */
function beneath(over: Record<string, unknown>, under: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...under, ...over };
  for (const [key, value] of Object.entries(under)) {
    const mine = over[key];
    if (isTable(mine) && isTable(value)) out[key] = beneath(mine, value);
  }
  return out;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
