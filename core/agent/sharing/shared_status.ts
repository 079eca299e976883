import type { LinkPaths } from "../../base/mod.ts";
import type { ServiceState } from "../services/mod.ts";
import { onSharedBridge } from "./bridges_file.ts";
import { askSharedBridge } from "./shared_bridge_client.ts";

/** How the shared bridge carries an agent that is on it. */
export interface SharedCarriage {
  /** The shared bridge's process, as the agent's bridge. */
  service: ServiceState;
  /** Why the agent is on the bridge's list but not carried: the bridge is gone, or could not carry it. */
  lost?: string;
}

/**
 * Where the shared bridge stands for an agent (PRC-6): undefined when the agent is not on it (it
 * has its own bridge, or none); else the bridge's process and, when it does not carry the agent,
 * why. Asks the bridge itself, so a bridge that died or failed the agent never reads as running.
 */
export async function sharedCarriage(paths: LinkPaths, agentId: string): Promise<SharedCarriage | undefined> {
  if (!(await onSharedBridge(paths, agentId))) return undefined;
  const bridge = await askSharedBridge(paths).catch(() => undefined);
  if (!bridge) return { service: { running: false, died: true }, lost: "the shared bridge stopped unbidden" };
  const service: ServiceState = { running: true, pid: bridge.pid };
  if (bridge.agents.some((a) => a.id === agentId)) return { service };
  const failed = bridge.failed.find((f) => f.id === agentId);
  return {
    service,
    lost: `the shared bridge cannot carry it: ${failed?.error.message ?? "it has not taken it on"}`,
  };
}
