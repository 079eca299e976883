import type { Secret } from "../../base/mod.ts";
import type { ServedAgentInput } from "../../harness/mod.ts";

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
  /**
   * Its servers' tools, listed once outside the sandbox (each `tools/list`, in the servers' order),
   * handed to Link Harness with the secret so its wake never loads the MCP SDK to list them (PRC-13).
   */
  listTools(): Promise<readonly ListedToolServer[]>;
  /** Makes the secret of a new start, refusing every earlier one from now on. */
  newSecret(): Secret;
}

/** One of the tool proxy's servers and its tools, as MCP lists them and the harness takes them. */
export type ListedToolServer = NonNullable<NonNullable<ServedAgentInput["toolProxy"]>["listed"]>[number];
