import type { Secret } from "../../base/mod.ts";

/** The tool proxy's socket name in the agent's `.net/<id>/` folder. */
export const TOOL_SOCKET = "tools.sock";

/**
 * The agent's tool proxy as a start of its sandbox takes it (SBX-18): served by the bridge on a
 * unix socket of `.net/<id>/`, relayed to 127.0.0.1:3129 inside, with a new secret for each start
 * (SBX-19) that only Link Harness is handed, on its stdin.
 */
export interface ToolProxySeat {
  /** Its socket, `.net/<id>/tools.sock`. */
  readonly socket: string;
  /** Its MCP servers, each the path after the secret. */
  readonly servers: readonly string[];
  /** Makes the secret of a new start, refusing every earlier one from now on. */
  newSecret(): Secret;
}
