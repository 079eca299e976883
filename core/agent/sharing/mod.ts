/**
 * How an agent stands with the processes it shares: the shared bridge (`shared_bridge = true`)
 * as `lnk agent start`, `stop`, `status` and `logs` see it (its list bridges.json, its service and
 * control socket), and the names of an owner's shared harness service. The processes themselves
 * are the roles of core/shared_bridge and core/shared_harness.
 * @module
 */
/** The list of agents on the shared bridge (bridges.json). */
export {
  BridgesFile,
  bridgesFilePath,
  onSharedBridge,
  putOnSharedBridge,
  readBridgesFile,
  takeOffSharedBridge,
} from "./bridges_file.ts";
/** What the shared bridge's control socket says. */
export { BridgesError, BridgesSnapshot, CarriedState, SyncAnswer, SyncRequest } from "./bridges_answer.ts";
/** The shared bridge's service and control socket, and asking it. */
export { sharedBridgeService, sharedBridgeSocketPath } from "./shared_bridge_service.ts";
export { askSharedBridge, sharedBridgeGone, syncSharedBridge } from "./shared_bridge_client.ts";
/** Starting, stopping and keeping an agent on the shared bridge. */
export {
  ensureSharedBridge,
  leaveSharedBridge,
  type SharedStartOptions,
  startOnSharedBridge,
  stayOnSharedBridge,
} from "./shared_start.ts";
/** The shared bridge's log lines naming one agent, and where it stands for one. */
export { agentLinesOf, sharedBridgeLogs } from "./shared_bridge_logs.ts";
export { type SharedCarriage, sharedCarriage } from "./shared_status.ts";
/** An owner's shared harness service: its names and socket. */
export {
  sharedHarnessNames,
  sharedHarnessService,
  sharedHarnessSocketPath,
  type SharedHarnessState,
} from "./shared_harness_service.ts";
