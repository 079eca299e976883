/**
 * Agents: IDs, owners, settings, folders, ports, keys, services, and their lifecycle (create,
 * start, stop, status, logs, remove, restore), plus the two roles each agent runs.
 * @module
 */
/** The context agent functions work in. */
export { type AgentContext, agentContext } from "./context.ts";
/** IDs that are never reused, and names safe for folders. */
export { checkAgentName, issueAgentId, noteIssuedId } from "./agent_id.ts";
/** Settings: schema, atomic locked writes, the raw ID read. */
export { AgentSettings, loadSettings, readIdRaw, saveSettings, updateSettings } from "./settings.ts";
/** The spec (opinions) and machine settings. */
export { DEFAULT_SPEC_TOML, parseSpec, Spec } from "../spec/mod.ts";
export { loadMachine, type Machine, MachineToml } from "./machine.ts";
export { type AgentConfig, loadAgentConfig } from "./agent_config.ts";
/** Folders. */
export { type AgentLayout, agentLayout, COLLECTIONS, createLayout, layoutOf } from "./layout.ts";
/** Ports in blocks of ten. */
export {
  BLOCK_FROM,
  BLOCK_SIZE,
  blockPorts,
  firstFreeBlock,
  isPortFree,
  MOVED_BELOW,
  randomFreeBlock,
} from "./ports.ts";
/** The agent's key, bound while it runs. */
export { bindKey, readKey, unbindKey } from "./keyring.ts";
/** The stand-in owner. */
export { standInOwner } from "./owner.ts";
/** Finding agents. */
export { findAgent, listAgents, resolveAgent } from "./agents.ts";
/** The lifecycle. */
export { createAgent, type CreateAgentOptions, portsOf } from "./create_agent.ts";
export { listRemoved, removeAgent, type RemoveFiles, type RemoveResult } from "./remove_agent.ts";
export { restoreAgent } from "./restore_agent.ts";
export { startAgent, type StartAgentOptions, type StartResult } from "./start_agent.ts";
export { stopAgent } from "./stop_agent.ts";
export { type AgentState, type AgentStatus, agentStatus } from "./agent_status.ts";
export { agentLogs, type LogLine, type LogSource } from "./agent_logs.ts";
/** One start, stop or remove of an agent at a time. */
export { type AgentChange, holdAgentLock } from "./agent_lock.ts";
/** What of the agent's is its user's alone, narrowed again at each start. */
export { secureAgentFolders } from "./secure_folders.ts";
/** The system's programs Link runs (bubblewrap, util-linux's), and whether the PATH has them. */
export { missingTools, onPath, requireTools, SYSTEM_TOOLS, type SystemTool } from "./system_tools.ts";
/** What a start says of an agent with no model to call. */
export { modelNote } from "./model_note.ts";
/** Services. */
export * as services from "./services/mod.ts";
export { serviceFor } from "./service_plan.ts";
/** The roles each agent runs. */
export { runAgentRole } from "./roles/run_agent_role.ts";
export { runBridgeRole } from "./roles/run_bridge_role.ts";
/** One bridge for every agent (`shared_bridge`): its role, and where it stands for an agent. */
export { runBridgesRole, SharedBridge, sharedBridgeService } from "./roles/shared/mod.ts";
/** The shared harness: one sandbox serving an owner's proxy-only agents (PRC-2). */
export {
  callShared,
  runSharedHarnessRole,
  sharedHarnessNames,
  sharedHarnessSocketPath,
  sharedRefusal,
} from "./roles/shared_harness/mod.ts";
/** The agent's own bridges: the store bridge and the way in (send.sock). */
export {
  checkConversationScope,
  openStoreDriver,
  SEND_ACTION,
  SEND_SOCKET,
  SendAnswer,
  SendCall,
  sendOnWayIn,
  sendSocketPath,
  serveStoreBridge,
  type ServeStoreBridgeOptions,
  serveWayIn,
  type ServeWayInOptions,
  sqliteStorePath,
  STORE_ACTIONS,
  STORE_BRIDGE_CAP,
  STORE_SOCKET,
  type StoreDriver,
  storeDriverFor,
  storeSocketPath,
  WAY_IN_CAP,
  type WayInCaller,
} from "./bridges/mod.ts";
/** Grants in use: allow/deny, the harness's policy, model key wiring, harness run and check. */
export * as grants from "./grants/mod.ts";
