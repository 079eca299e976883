import type { AgentKey } from "../../base/mod.ts";
import { callBridge } from "../../../link_bridge/mod.ts";
import { SEND_ACTION, SendAnswer, type SendCall } from "./serve_way_in.ts";

/** Who sends on the way in: the agent, proving the call with its key. */
export interface WayInCaller {
  agentId: string;
  owner: string;
  key: AgentKey;
  signal?: AbortSignal;
}

/**
 * Sends a message out through the agent's way in (its `send.sock`): what the harness does with a
 * reminder's answer no chat waits for (LOC-5), and the scheduler with its messages.
 */
export function sendOnWayIn(socket: string, caller: WayInCaller, message: SendCall): Promise<SendAnswer> {
  return callBridge(socket, { ...caller, action: SEND_ACTION, body: message, answer: SendAnswer });
}
