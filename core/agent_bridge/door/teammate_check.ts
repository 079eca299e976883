import { LinkError, type LinkPaths, readTextIfExists } from "../../base/mod.ts";
import { AgentSettings } from "../../agent/mod.ts";
import { parsePrincipal } from "../../spec/mod.ts";
import { shareTeam } from "../../teams/mod.ts";
import { validateToml } from "../../base/mod.ts";

/** The agent a door stands for, as its teammate check needs it. */
export interface DoorAgent {
  readonly id: string;
  readonly name: string;
  readonly owner: string;
}

/**
 * Judges a request's `Link-From` at the agent's door (TEAM-7): a message marked from another
 * agent is taken only when the two share a team now (the team files read afresh, no restart)
 * and the sender is the same owner's (TEAM-3); from the agent itself (its own schedules and
 * subagents) always. Anything else `Link-From` names (a person, a webhook) is for the harness to
 * judge. Refused: REFUSED, naming the teams' folder.
 */
export async function checkTeammate(
  paths: LinkPaths,
  agent: DoorAgent,
  from: readonly string[],
): Promise<LinkError | undefined> {
  if (from.length > 1) {
    return new LinkError(
      "REFUSED",
      `Cannot take a message for agent "${agent.name}": it says ${from.length} senders (Link-From)`,
    );
  }
  const said = from[0] ?? "";
  const principal = parsePrincipal(said);
  // One that looks like an agent and does not read as one is no agent's: never passed on as one.
  if (principal === undefined && /^\s*agent\s*:/i.test(said)) {
    return new LinkError(
      "REFUSED",
      `Cannot take a message for agent "${agent.name}": its sender "${said}" is not an agent's ID`,
    );
  }
  if (principal?.kind !== "agent" || principal.id === agent.id) return undefined;
  const sender = await ownerOf(paths, principal.id);
  if (sender === agent.owner && await shareTeam(paths, agent.id, principal.id, { owner: agent.owner })) {
    return undefined;
  }
  return new LinkError(
    "REFUSED",
    `Cannot take a message from agent "${principal.id}" for agent "${agent.name}": ` +
      (sender === undefined
        ? "there is no such agent"
        : sender !== agent.owner
        ? "it is another owner's"
        : `they share no team now (the team files in "${paths.teams}")`),
    { hint: `Put both on one team with \`lnk agent team add <team> <agent> --purpose "..."\`` },
  );
}

/** The owner of an agent by ID, or undefined when it has no settings that read. */
async function ownerOf(paths: LinkPaths, id: string): Promise<string | undefined> {
  if (!/^[a-z0-9]{6,64}$/.test(id)) return undefined;
  const path = paths.settingsToml(id);
  const text = await readTextIfExists(path).catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return validateToml(AgentSettings, text, path).owner;
  } catch {
    return undefined;
  }
}
