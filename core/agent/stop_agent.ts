import type { AgentContext } from "./context.ts";
import { holdAgentLock } from "./agent_lock.ts";
import { unbindKey } from "./keyring.ts";
import type { AgentSettings } from "./settings.ts";
import { pickBackend, serviceNames } from "./services/mod.ts";
import { leaveSharedBridge } from "./sharing/mod.ts";

/**
 * Stops an agent's services, the bridge first so no message wakes the agent meanwhile, and unbinds
 * its key, so proofs made with it are refused (BRG-7). An agent on the shared bridge is taken off
 * it, and the shared bridge stays for the others (PRC-16). A start of the agent still at work is
 * waited for, then stopped.
 */
export async function stopAgent(ctx: AgentContext, agent: AgentSettings): Promise<void> {
  using _lock = await holdAgentLock(ctx.paths, agent, "stop");
  await stopHeld(ctx, agent);
}

/** Stops the agent while its lock is held (by a stop or a remove). */
export async function stopHeld(ctx: AgentContext, agent: AgentSettings): Promise<void> {
  await leaveSharedBridge(ctx, agent.id);
  const backend = await pickBackend(ctx.paths, ctx.env);
  await backend.stop(serviceNames("bridge", agent.id));
  await backend.stop(serviceNames("agent", agent.id));
  await unbindKey(ctx.paths, agent.id);
  await Deno.remove(ctx.paths.net(agent.id), { recursive: true }).catch(() => {});
}
