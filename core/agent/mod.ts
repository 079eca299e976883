/**
 * Agents as data and their lifecycle: IDs, owners, settings, folders, ports, keys, services,
 * create, start, stop, status, logs, remove and restore, and how an agent stands with the shared
 * bridge and shared harness. The roles that run for an agent are folders of their own beside this
 * one (core/agent_bridge, core/agent_run, core/shared_bridge, core/shared_harness), and starting
 * an agent's harness is core/agent/launch.
 * @module
 */
/** The context agent functions work in. */
export { type AgentContext, agentContext } from "./context.ts";
/** IDs that are never reused, and names safe for folders. */
export { checkAgentName, issueAgentId, noteIssuedId } from "./agent_id.ts";
/** Settings: schema, atomic locked writes, the raw ID read. */
export {
  AgentSettings,
  loadSettings,
  readIdRaw,
  saveSettings,
  updateSettings,
  WebhookSettings,
} from "./settings.ts";
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
export { stopAgent } from "./stop_agent.ts";
export { type AgentState, type AgentStatus, agentStatus } from "./agent_status.ts";
export { agentLogs, type LogLine, type LogSource } from "./agent_logs.ts";
/** One start, stop or remove of an agent at a time. */
export { type AgentChange, holdAgentLock } from "./agent_lock.ts";
/** What of the agent's is its user's alone, narrowed again at each start. */
export { secureAgentFolders } from "./secure_folders.ts";
/** The system's programs Link runs (bubblewrap, util-linux's), and whether the PATH has them. */
export { missingTools, onPath, requireTools, SYSTEM_TOOLS, type SystemTool } from "./system_tools.ts";
/** Services. */
export * as services from "./services/mod.ts";
export { serviceFor } from "./service_plan.ts";
/** The unix sockets of an agent's socket folder that its bridges listen on. */
export { SEND_SOCKET, sendSocketPath, STORE_SOCKET, storeSocketPath } from "./sockets.ts";
/** What a role's failed start said, and whether a socket answers yet. */
export { serviceFailure } from "./service_failure.ts";
export { socketAnswers, waitForSocket } from "./endpoint_socket.ts";
/** The harness record each bridge keeps: which harness runs for the agent, and how. */
export { harnessState } from "./harness_record.ts";
/** As root: the uid each agent's sandbox (or an owner's shared harness) runs as (SBX-1). */
export { sandboxIdentity, sharedHolder } from "./sandbox_uid.ts";
/** A role's `--agent <id>`. */
export { roleAgentId } from "./role_flags.ts";
/** How an agent stands with the processes it shares: the shared bridge and its owner's shared harness. */
export * as sharing from "./sharing/mod.ts";
/** Where each connection the bridge carries stands, as its carrier last said. */
export { ConnectionState, readConnectionState, writeConnectionState } from "./connection_state.ts";
