import assert from "node:assert/strict";
import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import {
  bridgeErrorCode,
  bridgeFailure,
  type BridgeHandler,
  callBridge,
  keyForOne,
  openBridge,
  serveBridge,
} from "../../link_bridge/mod.ts";
import { proofLineFor, type Rig, startRig } from "./_support.ts";
import { serveDemoBridge } from "../support/demo_bridge.ts";
import { RawClient } from "../support/raw_client.ts";
import { FakeClock } from "../support/fake_clock.ts";

function startWith(handle: BridgeHandler): Promise<Rig> {
  return startRig({
    name: "custom",
    cap: 2,
    action: "act",
    start: ({ agent, hosting }) =>
      serveBridge({ ...hosting, name: "custom", cap: 2, keyFor: keyForOne(agent), handle }),
  });
}

function callerOf(rig: Rig, action: string) {
  return { agentId: rig.agent.id, owner: rig.agent.owner, key: rig.agent.key, action };
}

/** The wire code and message a failed call carried. */
async function failureOf(call: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const err = await call.then(() => undefined, (e) => e);
  assert.ok(err instanceof LinkError, `expected a LinkError, got ${err}`);
  return { code: bridgeErrorCode(err), message: err.message };
}

Deno.test("callBridge() returns the typed answer, checked by its schema", async () => {
  await using rig = await startRig({
    name: "demo",
    cap: 3,
    action: "echo",
    start: ({ agent, hosting }) => serveDemoBridge(agent, hosting),
  });
  const answer = await callBridge(rig.server.addr, {
    ...callerOf(rig, "echo"),
    body: { text: "hi" },
    answer: z.strictObject({ text: z.string(), agentId: z.string(), owner: z.string() }),
  });
  assert.deepEqual(answer, { text: "hi", agentId: rig.agent.id, owner: rig.agent.owner });
  await assert.rejects(
    callBridge(rig.server.addr, { ...callerOf(rig, "echo"), body: { text: "hi" }, answer: z.string() }),
    { name: "LinkError", code: "REFUSED" },
  );
});

Deno.test("callBridge() carries a body the bridge cannot read back as invalid", async () => {
  await using rig = await startWith(async (_call, conn) =>
    await conn.body(z.strictObject({ n: z.number() }))
  );
  assert.deepEqual(await callBridge(rig.server.addr, { ...callerOf(rig, "act"), body: { n: 1 } }), { n: 1 });
  const wrong = await failureOf(callBridge(rig.server.addr, { ...callerOf(rig, "act"), body: { n: "one" } }));
  assert.equal(wrong.code, "invalid");
  await using raw = await RawClient.connect(rig.server.addr);
  await raw.write(
    `${proofLineFor(await raw.challenge(), { ...callerOf(rig, "act") }, rig.agent.key)}{not json\n`,
  );
  assert.equal(await raw.readLine(), "proven");
  assert.deepEqual(JSON.parse((await raw.readLine()) ?? ""), {
    error: { code: "INVALID", message: 'Cannot read the body of "act": it is not JSON', hint: null },
  });
});

Deno.test("serveBridge() answers a handler's own refusal in the one error shape, and hides a crash", async () => {
  await using rig = await startWith((call) => {
    if (call.action === "refuse") {
      return Promise.reject(bridgeFailure("refused", 'Cannot send to "x": it is not a teammate'));
    }
    return Promise.reject(new Error("database password is hunter2"));
  });
  assert.deepEqual(await failureOf(callBridge(rig.server.addr, callerOf(rig, "refuse"))), {
    code: "refused",
    message: 'Cannot send to "x": it is not a teammate',
  });
  assert.deepEqual(await failureOf(callBridge(rig.server.addr, callerOf(rig, "crash"))), {
    code: "refused",
    message: "Cannot answer the call: the bridge failed, and its log says why",
  });
});

Deno.test("openBridge() relays bytes both ways after the proof, keeping bytes sent with the proof", async () => {
  await using rig = await startRig({
    name: "demo",
    cap: 3,
    action: "relay",
    start: ({ agent, hosting }) => serveDemoBridge(agent, hosting),
  });
  await using stream = await openBridge(rig.server.addr, callerOf(rig, "relay"));
  const writer = stream.writable.getWriter();
  await writer.write(new TextEncoder().encode("ping"));
  await writer.close();
  assert.equal(await new Response(stream.readable).text(), "ping");
  await using raw = await RawClient.connect(rig.server.addr);
  await raw.write(
    `${proofLineFor(await raw.challenge(), callerOf(rig, "relay"), rig.agent.key)}early bytes\n`,
  );
  assert.deepEqual([await raw.readLine(), await raw.readLine()], ["proven", "early bytes"]);
});

Deno.test("callBridge() says when nothing answers at the bridge's socket", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      callBridge(`${dir}/none.sock`, { agentId: "a", owner: "o", key: new Uint8Array(32), action: "act" }),
      { name: "LinkError", code: "AGENT_NOT_RUNNING" },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("callBridge() stops waiting when its signal aborts", async () => {
  const held = Promise.withResolvers<void>();
  await using rig = await startWith(async (call) => {
    held.resolve();
    await new Promise((resolve) => call.signal.addEventListener("abort", resolve));
  });
  const abort = new AbortController();
  const reason = new Error("caller gave up");
  const call = callBridge(rig.server.addr, { ...callerOf(rig, "act"), body: 1, signal: abort.signal });
  await held.promise;
  abort.abort(reason);
  await assert.rejects(call, reason);
});

Deno.test("callBridge() tries again while the bridge is busy, and says busy when it stays so (BRG-11)", async () => {
  await using rig = await startRig({
    name: "demo",
    cap: 3,
    action: "echo",
    start: ({ agent, hosting }) => serveDemoBridge(agent, hosting),
  });
  const held: RawClient[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const raw = await RawClient.connect(rig.server.addr);
      held.push(raw);
      await raw.write(proofLineFor(await raw.challenge(), callerOf(rig, "echo"), rig.agent.key));
      assert.equal(await raw.readLine(), "proven");
    }
    const clock = new FakeClock();
    const caller = { ...callerOf(rig, "echo"), body: { text: "hi" }, clock };
    const gaveUp = failureOf(callBridge(rig.server.addr, caller));
    for (const delay of [25, 100, 400]) {
      await clock.waitForSleepers(1);
      await clock.advance(delay);
    }
    assert.equal((await gaveUp).code, "busy");
    const waited = callBridge(rig.server.addr, caller);
    await clock.waitForSleepers(1);
    await held[0]!.write('{"text":"first"}\n');
    assert.deepEqual(JSON.parse((await held[0]!.readLine()) ?? ""), {
      answer: { text: "first", agentId: rig.agent.id, owner: rig.agent.owner },
    });
    await clock.advance(25);
    assert.deepEqual(await waited, { text: "hi", agentId: rig.agent.id, owner: rig.agent.owner });
  } finally {
    for (const raw of held) raw.close();
  }
});
