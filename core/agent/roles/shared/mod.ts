/**
 * One bridge for every agent of this user on the machine (`shared_bridge = true` in machine.toml,
 * PRC-5..8, PRC-15, PRC-16): the `lnk agent bridges` role carrying each started agent's door,
 * store bridge and way in with its own key, one scheduler runner a time zone, a 20 s linger after
 * its last agent; and what `lnk agent start`, `stop` and `status` do with it. An agent asleep on it
 * holds no process of its own.
 * @module
 */
/** The role. */
export { runBridgesRole } from "./run_bridges_role.ts";
/** The bridge itself, run by the role or in a test's process. */
export { SharedBridge, type SharedBridgeOptions } from "./shared_bridge.ts";
/** One agent carried: its door, store bridge and way in. */
export { type CarriedAgent, carryAgent, type CarryOptions } from "./carried_agent.ts";
/** The list of agents on the shared bridge (bridges.json). */
export {
  BridgesFile,
  bridgesFilePath,
  onSharedBridge,
  putOnSharedBridge,
  readBridgesFile,
  takeOffSharedBridge,
} from "./bridges_file.ts";
/** What the control socket answers. */
export { BridgesSnapshot, type CarriedState, ENDING, SyncAnswer } from "./bridges_answer.ts";
/** The service and its control socket. */
export { sharedBridgeService, sharedBridgeSocketPath } from "./shared_bridge_service.ts";
export { serveBridgesControl } from "./serve_bridges_control.ts";
export { askSharedBridge, sharedBridgeGone, syncSharedBridge } from "./shared_bridge_client.ts";
/** Starting, stopping and keeping an agent on the shared bridge. */
export {
  ensureSharedBridge,
  leaveSharedBridge,
  type SharedStartOptions,
  startOnSharedBridge,
  stayOnSharedBridge,
} from "./shared_start.ts";
/** The shared bridge's log lines naming one agent, for `lnk agent logs`. */
export { agentLinesOf, sharedBridgeLogs } from "./shared_bridge_logs.ts";
/** Where the shared bridge stands for an agent, for `lnk agent status`. */
export { type SharedCarriage, sharedCarriage } from "./shared_status.ts";
/** Ending a process no agent owns after a while (PRC-15). */
export { Linger, LINGER_MS } from "./linger.ts";
