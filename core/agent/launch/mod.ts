/**
 * Starting an agent's harness, as each role that runs one does: planned ahead (its policy, its
 * sandbox, its model), then started in its sandbox behind its own proxy (or unsandboxed where the
 * agent says so), or handed to its owner's shared harness; as a child of the agent's bridge
 * (inBridgeStarter), or as the `lnk agent run` service (serviceStarter).
 * @module
 */
/** An agent's harness planned and started: in a sandbox of its own, on the shared harness, or plain. */
/** The tool proxy as a start of the sandbox takes it. */
export { type ListedToolServer, TOOL_SOCKET, type ToolProxySeat } from "./tool_proxy_seat.ts";
export { type AgentLaunch, type AgentLaunchOptions, prepareAgentLaunch } from "./agent_launch.ts";
/** How a bridge starts and stops its agent: as a service, or as its own child. */
export { type AgentStarter, childStarter, serviceStarter } from "./agent_starter.ts";
/** The starter a bridge uses to run the harness itself, its proxy in the bridge's process. */
export { type InBridgeStarter, inBridgeStarter, type InBridgeStarterOptions } from "./in_bridge_starter.ts";
/** A harness process, however started, and what it is handed on stdin. */
export {
  harnessInputEntry,
  harnessInputLine,
  type HarnessProcess,
  harnessRole,
  startPlainHarness,
} from "./harness_process.ts";
/** The sandboxed start, planned then launched. */
export {
  planSandboxedHarness,
  type SandboxedHarnessOptions,
  startSandboxedHarness,
} from "./sandboxed_harness.ts";
export {
  launchSandboxedHarness,
  type LaunchSandboxedOptions,
  type SandboxedHarnessPlan,
} from "./launch_sandboxed.ts";
/** How the harness reaches its model from inside. */
export { loopbackPort, type ModelRoute, modelRoute } from "./model_route.ts";
/** What a planned start rests on, so a change starts it afresh. */
export { launchSignature } from "./launch_signature.ts";
export { type LaunchWatch, watchLaunchFolders } from "./launch_watch.ts";
/** The sandboxed role's ready line. */
export { readSandboxReady } from "./sandbox_ready.ts";
/** The owner's shared harness: joining it, asking it, and who may not (PRC-3). */
export { callShared, launchOnSharedHarness } from "./shared_harness_launch.ts";
export { sharedRefusal } from "./shared_eligible.ts";
/** Loading the harness's modules into Deno's code cache before a wake. */
export { warmHarnessCode } from "./warm_harness.ts";
/** Starts an agent: its checks, ports, key, then its bridge, or the shared bridge, or the terminal. */
export { startAgent, type StartAgentOptions, type StartResult } from "./start_agent.ts";
/** What a harness Link did not write runs with, as its adapter says. */
export { adapterHasEndpoint, type AdapterPlan, adapterPlanFor } from "./adapter_plan.ts";
export { adapterInput } from "../adapter_input.ts";
/** The conformance kit against the running agent (`lnk agent harness kit`). */
export { agentKit } from "./agent_kit.ts";
/** What a start says of an agent with no model to call. */
export { modelNote } from "./model_note.ts";
