/**
 * The two roles each agent runs: its bridge, whose door wakes the agent at a message and lets it
 * sleep when idle (PRC-10, PRC-11, U-36), and its agent service, which runs its harness.
 * @module
 */
/** `lnk agent run --agent <id>`: the agent's service. */
export { runAgentRole } from "./run_agent_role.ts";
/** `lnk agent bridge --agent <id> [--foreground]`: the agent's bridge. */
export { runBridgeRole } from "./run_bridge_role.ts";
/** The agent's door: its port relayed to its harness, waking the agent and letting it sleep. */
export { type AgentDoor, type AgentDoorOptions, openAgentDoor } from "./agent_door.ts";
/** How the bridge starts and stops its agent: as a service, or as its child. */
export { type AgentStarter, childStarter, serviceStarter } from "./agent_starter.ts";
/** Waking and sleeping, one step at a time. */
export { AgentWaker, type AgentWakerOptions, type WakeState } from "./agent_waker.ts";
/** The idle sleep condition (PRC-10). */
export { type IdleCheck, IdleWatch, type IdleWatchOptions } from "./idle_watch.ts";
/** Asking the harness whether a turn runs or a background command holds its lock. */
export { askHarnessBusy, HarnessBusy } from "./harness_busy.ts";
/** Whether the harness's endpoint socket answers. */
export { socketAnswers, waitForSocket } from "./endpoint_socket.ts";
/** A failed start, said with the role's own reason. */
export { lastServiceError, type LoggedError, serviceFailure } from "./service_failure.ts";
