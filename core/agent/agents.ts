import { LinkError } from "../base/mod.ts";
import type { AgentContext } from "./context.ts";
import { type AgentSettings, loadSettings } from "./settings.ts";

/** Every agent of this user, by the settings files under ~/.lnk/agents, sorted by name. */
export async function listAgents(ctx: AgentContext): Promise<AgentSettings[]> {
  const agents: AgentSettings[] = [];
  try {
    for await (const entry of Deno.readDir(ctx.paths.agentsState)) {
      if (!entry.isDirectory || entry.name.startsWith(".")) continue;
      try {
        await Deno.stat(ctx.paths.settingsToml(entry.name));
      } catch {
        continue;
      }
      agents.push(await loadSettings(ctx.paths, entry.name));
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return agents.sort((a, b) => a.name.localeCompare(b.name));
}

/** The agent with this name (or ID), or undefined. */
export async function findAgent(ctx: AgentContext, nameOrId: string): Promise<AgentSettings | undefined> {
  const agents = await listAgents(ctx);
  return agents.find((a) => a.name === nameOrId) ?? agents.find((a) => a.id === nameOrId);
}

/**
 * The agent a command acts on: the one named with --agent, or the only one there is (CLI-2).
 * With several and none named, asks for --agent.
 */
export async function resolveAgent(ctx: AgentContext, name: string | undefined): Promise<AgentSettings> {
  const agents = await listAgents(ctx);
  if (name !== undefined) {
    const found = agents.find((a) => a.name === name) ?? agents.find((a) => a.id === name);
    if (found) return found;
    throw new LinkError("AGENT_NOT_FOUND", `Cannot find agent "${name}"`, {
      hint: agents.length
        ? `Your agents: ${agents.map((a) => a.name).join(", ")}`
        : "Create one with `lnk agent create <name>`",
    });
  }
  if (agents.length === 1) return agents[0]!;
  if (agents.length === 0) {
    throw new LinkError("AGENT_NOT_FOUND", "Cannot find an agent: you have none yet", {
      hint: "Create one with `lnk agent create main`",
    });
  }
  throw new LinkError("USAGE", `Cannot tell which agent you mean: you have ${agents.length}`, {
    hint: `Name one with --agent: ${agents.map((a) => a.name).join(", ")}`,
  });
}
