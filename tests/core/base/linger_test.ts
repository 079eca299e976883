import assert from "node:assert/strict";
import { agentContext } from "../../../core/agent/mod.ts";
import { serveBridgesControl, SharedBridge } from "../../../core/shared_bridge/mod.ts";
import { FakeClock, runJson, settle } from "../../support/mod.ts";
import { createAgent, sharedHome, type Status } from "../../support/shared_bridge.ts";

// The shared bridge runs in this process on a fake clock, answering at its control socket as the
// role does, so `lnk agent start` and `stop` (run in this process too) find it and use it. The
// agents' services are real processes under the detached backend.

Deno.test("the shared bridge ends 20 s after its last agent and not before; an agent started within the linger keeps it (PRC-15)", async () => {
  await using home = await sharedHome();
  const clock = new FakeClock(Date.now());
  const ctx = agentContext(home.env, { home: home.path });
  await using bridge = await SharedBridge.open({ ctx, clock });
  await using _control = await serveBridgesControl(Promise.resolve(bridge), home.paths);
  let ended = false;
  void bridge.ended.then(() => ended = true);
  await createAgent(home, "work");
  // No agent yet: it counts from its start.
  assert.equal(bridge.snapshot().lingering, true);
  const started = await runJson<Status>(["agent", "start"], home);
  assert.deepEqual([started.state, started.services.bridge.pid], ["running", Deno.pid]);
  assert.equal(bridge.snapshot().lingering, false);
  await runJson(["agent", "stop"], home);
  assert.equal(bridge.snapshot().lingering, true);
  await clock.advance(10_000);
  // Started again 10 s after its last agent left: the same bridge carries it, and its count stops.
  const again = await runJson<Status>(["agent", "start"], home);
  assert.deepEqual([again.state, again.services.bridge.pid], ["running", Deno.pid]);
  await clock.advance(30_000);
  assert.equal(ended, false);
  await runJson(["agent", "stop"], home);
  await clock.advance(19_999);
  await settle();
  assert.deepEqual([ended, bridge.snapshot().lingering], [false, true]);
  await clock.advance(1);
  await bridge.ended;
  // Ending: a start now is told to start another.
  const late = await bridge.sync({ agent: again.id, wake: true });
  assert.equal(late.ending, true);
});
