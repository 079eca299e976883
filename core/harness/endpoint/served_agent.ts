import type { AgentKey } from "../../base/mod.ts";
import type { AgentTurns } from "../turns/agent_turns.ts";

/** One agent an endpoint answers for: its turns, its key, and its ACP sessions (keyed by its ID, IDN-9). */
export interface ServedAgent {
  turns: AgentTurns;
  key: AgentKey;
  /** Session ID to thread key; for Link Harness the session ID is the thread key. */
  sessions: Map<string, string>;
}

/**
 * The agent a request is for (ADP-4, ADP-5): the one its `Link-Agent-Id` names, else the one its
 * `Link-Agent` names when only one of that name runs here, else, naming none, the process's own
 * (the first). Undefined for one this process does not run, which is refused before any model call.
 */
export function agentFor(agents: readonly ServedAgent[], req: Request): ServedAgent | undefined {
  const id = req.headers.get("link-agent-id");
  if (id) return agents.find((a) => a.turns.agent.id === id);
  const name = req.headers.get("link-agent");
  if (name) {
    const named = agents.filter((a) => a.turns.agent.name === name);
    return named.length === 1 ? named[0] : undefined;
  }
  return agents[0];
}
