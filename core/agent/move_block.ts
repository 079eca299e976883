import { lockFile } from "../base/mod.ts";
import { listAgents } from "./agents.ts";
import type { AgentContext } from "./context.ts";
import { portsOf } from "./create_agent.ts";
import { blockPorts, isPortFree, randomFreeBlock } from "./ports.ts";
import { type AgentSettings, updateSettings } from "./settings.ts";

/** Rechecks the agent's ports; where another program holds one, moves the block first (PRT-4). */
export async function freePorts(ctx: AgentContext, agent: AgentSettings): Promise<AgentSettings> {
  const ports = [agent.ports.endpoint, ...blockPorts(agent.ports.block)];
  const busy = ports.find((p) => !isPortFree(p));
  return busy === undefined ? agent : await moveBlock(ctx, agent, busy);
}

/**
 * Moves the agent to a random free block (PRT-5) and says so. The block is chosen and written
 * under the agents' lock, as a create's is, so no other agent of this user is given it meanwhile.
 */
export async function moveBlock(
  ctx: AgentContext,
  agent: AgentSettings,
  busy: number,
): Promise<AgentSettings> {
  const moved = await (async () => {
    using _lock = await lockFile(ctx.paths.agentsLock);
    const others = (await listAgents(ctx)).filter((a) => a.id !== agent.id);
    const block = randomFreeBlock(portsOf(others));
    return await updateSettings(ctx.paths, agent.id, (s) => ({ ...s, ports: { endpoint: block, block } }));
  })();
  const { block } = moved.ports;
  ctx.note?.(
    `Moved agent "${agent.name}" to ports ${block}-${block + 9}: port ${busy} is taken by another program`,
  );
  return moved;
}
