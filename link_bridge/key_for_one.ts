import type { AgentKey } from "../core/base/mod.ts";
import type { KeyFor } from "./bridge_session.ts";

/** A `keyFor` serving one agent: its key proves only that agent with that owner (BRG-15). */
export function keyForOne(agent: { id: string; owner: string; key: AgentKey }): KeyFor {
  return (agentId, owner) => (agentId === agent.id && owner === agent.owner ? agent.key : undefined);
}
