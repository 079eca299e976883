/**
 * One bridge for every agent of this user on the machine (`shared_bridge = true` in machine.toml,
 * PRC-5..8, PRC-15, PRC-16): the `lnk agent bridges` role carrying each started agent's door,
 * store bridge and way in with its own key, one scheduler runner a time zone, a 20 s linger after
 * its last agent. What `lnk agent start`, `stop` and `status` do with it is core/agent/sharing's. An
 * agent asleep on it holds no process of its own.
 * @module
 */
/** The role, its modules loaded when it runs. */
export async function runSharedBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runBridgesRole } = await import("./run_shared_bridge_role.ts");
  return await runBridgesRole(args, signal);
}
/** The bridge itself, run by the role or in a test's process. */
export { SharedBridge, type SharedBridgeOptions } from "./shared_bridge.ts";
/** One agent carried: its door, store bridge and way in. */
export { type CarriedAgent, carryAgent, type CarryOptions } from "./carried_agent.ts";
/** Its control socket. */
export { serveBridgesControl } from "./serve_bridges_control.ts";
