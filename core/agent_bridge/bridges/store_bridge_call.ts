import { type LinkError, logger } from "../../base/mod.ts";
import { type BridgeCall, type BridgeConn, bridgeFailure } from "../../../link_bridge/mod.ts";
import {
  answerStoreCall,
  type ConversationStore,
  describeCall,
  DriverRequest,
} from "../../harness/store/mod.ts";
import { checkConversationScope } from "./conversation_scope.ts";

const log = logger("store-bridge");

/** The store operations a harness may ask for, each its own action in the proof (TRN-14). */
export const STORE_ACTIONS: readonly string[] = DriverRequest.options.map((option) => option.shape.op.value);

/**
 * Answers one proven store call from the agent's own store: the body is one driver protocol
 * call whose `op` is the proven action; the answer is the driver protocol's answer. A failure
 * is answered in the bridge's words only: what the driver said (a path, a connection string, its
 * last words) goes to the bridge's log, never to the caller.
 */
export async function handleStoreCall(
  store: ConversationStore,
  call: BridgeCall,
  conn: BridgeConn,
): Promise<Record<string, unknown>> {
  if (!STORE_ACTIONS.includes(call.action)) {
    throw bridgeFailure("refused", `Cannot "${call.action}": the store bridge has no such operation`);
  }
  const request = await conn.body(DriverRequest);
  if (request.op !== call.action) {
    throw bridgeFailure(
      "invalid",
      `Cannot take the call: its body asks for "${request.op}" but its proof is for "${call.action}"`,
    );
  }
  if ("conversation" in request) checkConversationScope(request.conversation);
  const reply = await answerStoreCall(store, JSON.stringify(request));
  const failed = reply.error as { code?: unknown; message?: unknown } | undefined;
  if (failed === undefined) return reply;
  log.warn("Store call failed", {
    agent: call.agentId,
    op: request.op,
    code: failed.code,
    driver: failed.message,
  });
  throw inBridgeWords(String(failed.code), describeCall(request));
}

function inBridgeWords(code: string, what: string): LinkError {
  if (code === "USAGE" || code === "CONFLICT") {
    return bridgeFailure("invalid", `Cannot ${what}: the store refused the call as not valid`);
  }
  if (code === "TIMEOUT") {
    return bridgeFailure("deadline", `Cannot ${what}: the store did not answer in time and was stopped`);
  }
  return bridgeFailure("refused", `Cannot ${what}: the store failed, and the bridge's log says why`);
}
