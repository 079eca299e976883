import type { AgentContext } from "../context.ts";
import { pickBackend, type ServiceNames, SHARED_BRIDGE_NAMES } from "../services/mod.ts";

/** How many of the shared bridge's last lines are searched for one agent's. */
const SEARCHED = 5000;

/**
 * The shared bridge's log lines that name the agent (its door, its wakes and sleeps, its
 * harness's start and end), the last `lines` of them: the shared log is every agent's, so lines
 * naming no agent or another are left out.
 */
export function sharedBridgeLogs(ctx: AgentContext, agentId: string, lines: number): Promise<string> {
  return agentLinesOf(ctx, SHARED_BRIDGE_NAMES, agentId, lines);
}

/**
 * The last `lines` log lines of a service many agents share (the shared bridge, an owner's shared
 * harness) that name the agent by `agent`: a line naming several is every agent's, not its.
 */
export async function agentLinesOf(
  ctx: AgentContext,
  names: ServiceNames,
  agentId: string,
  lines: number,
): Promise<string> {
  const backend = await pickBackend(ctx.paths, ctx.env);
  const text = await backend.logs(names, SEARCHED).catch(() => "");
  const mine = text.split("\n").filter((line) => {
    try {
      return (JSON.parse(line) as { agent?: unknown }).agent === agentId;
    } catch {
      return false;
    }
  });
  return mine.slice(-lines).join("\n");
}
