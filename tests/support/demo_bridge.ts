import { z } from "zod";
import type { AgentKey } from "../../core/base/mod.ts";
import {
  bridgeFailure,
  type BridgeHosting,
  type BridgeServer,
  keyForOne,
  serveBridge,
} from "../../link_bridge/mod.ts";

const EchoBody = z.strictObject({ text: z.string() });

/**
 * The smallest bridge, for tests: `echo` answers its text with who asked, `relay` sends the
 * caller's bytes back (carries). Cap 3.
 */
export function serveDemoBridge(
  agent: { id: string; owner: string; key: AgentKey },
  hosting: BridgeHosting,
): Promise<BridgeServer> {
  return serveBridge({
    ...hosting,
    name: "demo",
    cap: 3,
    keyFor: keyForOne(agent),
    async handle(call, conn) {
      if (call.action === "echo") {
        const body = await conn.body(EchoBody);
        return { text: body.text, agentId: call.agentId, owner: call.owner };
      }
      if (call.action === "relay") {
        // carries: the demo relay sends the caller's bytes back unread.
        await conn.readable.pipeTo(conn.writable);
        return undefined;
      }
      throw bridgeFailure("refused", `Cannot "${call.action}": the demo bridge has no such action`);
    },
  });
}
