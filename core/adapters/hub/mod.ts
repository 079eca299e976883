/**
 * The hub: a stdio ACP agent served as the agent's endpoint, with the proof, one ACP session per
 * Link thread and its answers streamed (ARCHITECTURE.md section 6).
 * @module
 */
/** The hub's endpoint and what it is handed. */
export { Hub, type HubOptions, QUIET_TIMEOUT_MS } from "./hub.ts";
export { hubCommand, HubInput } from "./hub_input.ts";
/** One run of the ACP program. */
export { AcpChild, type AcpCommand, START_TIMEOUT_MS } from "./acp_child.ts";
