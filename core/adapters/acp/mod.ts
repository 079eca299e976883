/**
 * The acp adapter: any stdio ACP agent, named by its command, run under the hub.
 * @module
 */
export { acpAdapter, AcpSettings } from "./acp_adapter.ts";
export { resolveCommand, splitCommand } from "./acp_command.ts";
