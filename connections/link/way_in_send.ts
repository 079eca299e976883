import { z } from "zod";
import type { AgentKey } from "../../core/base/mod.ts";
import { callBridge } from "../../link_bridge/mod.ts";

/** The one action of the way in. */
export const SEND_ACTION = "send";

/**
 * A message the agent sends out on one of its connections (its harness answering a reminder, its
 * scheduler): the thread is the thread key, `<connection>:<chat id>`.
 */
export const SendCall = z.strictObject({
  connection: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
  // deno-lint-ignore no-control-regex
  thread: z.string().min(3).max(512).regex(/^[^\u0000-\u001f\u007f]+$/),
  text: z.string().min(1),
  /**
   * The sender's name for this message, the same at every retry (the runner's firing request): a
   * send the way in took already under it is not held again, so a retry after a lost reply never
   * sends the answer twice.
   */
  id: z.string().regex(/^[A-Za-z0-9:@._+#-]{1,200}$/).optional(),
});
export type SendCall = z.infer<typeof SendCall>;

/** What the way in did with a send: held for the next chat on the thread (the `link` connection). */
export const SendAnswer = z.strictObject({ held: z.boolean() });
export type SendAnswer = z.infer<typeof SendAnswer>;

/** Who sends on the way in: the agent, proving the call with its key. */
export interface WayInCaller {
  agentId: string;
  owner: string;
  key: AgentKey;
  signal?: AbortSignal;
}

/**
 * Sends a message out through the agent's way in (its `send.sock`, served by the agent's bridge):
 * what the harness does with a reminder's answer no chat waits for (LOC-5), and the scheduler's
 * runner with the answers to its firings (SCH-3). Here, below both, so each can import it.
 */
export function sendOnWayIn(socket: string, caller: WayInCaller, message: SendCall): Promise<SendAnswer> {
  return callBridge(socket, { ...caller, action: SEND_ACTION, body: message, answer: SendAnswer });
}
