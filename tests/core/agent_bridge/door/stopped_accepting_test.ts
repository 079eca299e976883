import assert from "node:assert/strict";
import { LinkError } from "../../../../core/base/mod.ts";
import { stoppedAccepting } from "../../../../core/agent_bridge/door/mod.ts";

Deno.test("stoppedAccepting() rejects with why once a door or bridge stops accepting on its own, so its role ends", async () => {
  const door = Promise.withResolvers<void>();
  const bridge = Promise.withResolvers<void>();
  const failed = stoppedAccepting({ finished: door.promise }, { finished: bridge.promise });
  const why = new LinkError("SERVICE_FAILED", "Cannot accept connections on the door: its listener closed");
  door.reject(why);
  await assert.rejects(failed, why);
});

Deno.test("stoppedAccepting() says nothing while its servers are only closed", async () => {
  const closed = stoppedAccepting({ finished: Promise.resolve() });
  const outcome = await Promise.race([
    closed.then(() => "settled", () => "rejected"),
    Promise.resolve("pending"),
  ]);
  assert.equal(outcome, "pending");
});
