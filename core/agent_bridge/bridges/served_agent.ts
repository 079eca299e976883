import { type AgentKey, LinkError } from "../../base/mod.ts";
import type { KeyFor } from "../../../link_bridge/mod.ts";

/** Whom an agent's bridge serves, and how it knows the agent's key. */
export interface ServedAgent {
  /** The agent the bridge serves: a proof claiming any other identity is refused (BRG-15). */
  agent: { id: string; owner: string };
  /** The agent's key as handed to the bridge at start... */
  key?: AgentKey;
  /** ...or where the bridge finds it (a shared bridge's keys); asked only for this agent. */
  keyFor?: KeyFor;
}

/** A KeyFor that knows only the served agent's key, so no other identity is ever proven (BRG-15). */
export function agentKeyFor(served: ServedAgent, bridge: string): KeyFor {
  const { agent, key, keyFor } = served;
  if ((key === undefined) === (keyFor === undefined)) {
    const message =
      `Cannot serve the ${bridge} bridge of agent "${agent.id}": give it a key or a keyFor, not both`;
    throw new LinkError("INTERNAL", message);
  }
  return (agentId, owner) => {
    if (agentId !== agent.id || owner !== agent.owner) return undefined;
    return key ?? keyFor!(agentId, owner);
  };
}
