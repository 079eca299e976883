import assert from "node:assert/strict";
import { bridgeErrorCode, callBridge } from "../../../../link_bridge/mod.ts";
import { heldDir, linkThread, takeHeld } from "../../../../connections/link/mod.ts";
import { bindKey, saveSettings, sendSocketPath, unbindKey } from "../../../../core/agent/mod.ts";
import { FakeClock } from "../../../support/mod.ts";
import { type BoundAgent, boundAgent } from "./_support.ts";
import { sendOnWayIn } from "../../../../core/agent_bridge/mod.ts";
import { serveWayIn } from "../../../../core/agent_bridge/mod.ts";

async function wayIn(): Promise<BoundAgent & { clock: FakeClock; socket: string } & AsyncDisposable> {
  const bound = await boundAgent();
  const clock = new FakeClock();
  const server = await serveWayIn({ ...bound, clock });
  return {
    ...bound,
    clock,
    socket: sendSocketPath(bound.paths, bound.agent.id),
    async [Symbol.asyncDispose]() {
      await server.close();
      await Deno.remove(bound.root, { recursive: true });
    },
  };
}

function callerOf(rig: BoundAgent) {
  return { agentId: rig.agent.id, owner: rig.agent.owner, key: rig.key };
}

async function failure(call: Promise<unknown>): Promise<Error & { code: string }> {
  const err = await call.then(() => undefined, (e) => e);
  assert.ok(err instanceof Error, "expected the call to fail");
  return err as Error & { code: string };
}

Deno.test("serveWayIn() holds a link message in the connection's folder for the next chat on its thread, once (LOC-5)", async () => {
  await using rig = await wayIn();
  const thread = linkThread("work");
  assert.deepEqual(
    await sendOnWayIn(rig.socket, callerOf(rig), { connection: "link", thread, text: "Reminder: call Bo" }),
    {
      held: true,
    },
  );
  const dir = heldDir(rig.paths, rig.agent.id);
  assert.equal((await Deno.stat(rig.paths.connectionDir(rig.agent.id, "link"))).mode! & 0o777, 0o700);
  assert.deepEqual(await takeHeld(dir, linkThread("main")), []);
  assert.deepEqual(await takeHeld(dir, thread), [{ thread, text: "Reminder: call Bo", at: rig.clock.now() }]);
  assert.deepEqual(await takeHeld(dir, thread), []);
});

Deno.test("serveWayIn() answers a connection it does not hold: refused, not connected", async () => {
  await using rig = await wayIn();
  const err = await failure(
    sendOnWayIn(rig.socket, callerOf(rig), { connection: "telegram", thread: "telegram:42", text: "hi" }),
  );
  assert.equal(bridgeErrorCode(err), "refused");
  assert.match(err.message, /not connected/);
});

Deno.test("serveWayIn() refuses a thread of another connection, a bad body and another action", async () => {
  await using rig = await wayIn();
  const send = (body: unknown, action = "send") => callBridge(rig.socket, { ...callerOf(rig), action, body });
  assert.equal(
    bridgeErrorCode(await failure(send({ connection: "link", thread: "telegram:1", text: "x" }))),
    "invalid",
  );
  assert.equal(bridgeErrorCode(await failure(send({ connection: "link", thread: "link:main" }))), "invalid");
  assert.equal(
    bridgeErrorCode(await failure(send({ connection: "link", thread: "link:\u0000", text: "x" }))),
    "invalid",
  );
  assert.equal(bridgeErrorCode(await failure(send({}, "store"))), "refused");
  assert.deepEqual(await takeHeld(heldDir(rig.paths, rig.agent.id), "link:main"), []);
});

Deno.test("serveWayIn() outliving its agent's stop takes nothing proved with the old key (BRG-14)", async () => {
  await using rig = await wayIn();
  const message = { connection: "link", thread: "link:main", text: "late" };
  await unbindKey(rig.paths, rig.agent.id);
  const stopped = await failure(sendOnWayIn(rig.socket, callerOf(rig), message));
  assert.equal(bridgeErrorCode(stopped), "unproven");
  assert.equal(stopped.code, "PROOF_FAILED");
  // Started again: a new key is bound; the lingering way in still takes nothing with the old one.
  const fresh = await bindKey(rig.paths, rig.agent.id);
  assert.equal(bridgeErrorCode(await failure(sendOnWayIn(rig.socket, callerOf(rig), message))), "unproven");
  // Nor with the new one: it was handed the old key; the new start serves its own way in.
  const withNew = { ...callerOf(rig), key: fresh };
  assert.equal(bridgeErrorCode(await failure(sendOnWayIn(rig.socket, withNew, message))), "unproven");
  assert.deepEqual(await takeHeld(heldDir(rig.paths, rig.agent.id), "link:main"), []);
});

Deno.test("serveWayIn() holds a message on a connection the agent has in its connection's folder, for its carrier to send to the owner (SCH-3)", async () => {
  await using rig = await wayIn();
  await saveSettings(rig.paths, {
    id: rig.agent.id,
    name: "work",
    owner: rig.agent.owner,
    harness: "link",
    ports: { endpoint: 20010, block: 20010 },
    sandbox: { enabled: true },
    bots: { telegram: {} },
  });
  const message = { connection: "telegram", thread: "telegram:-100", text: "Reminder: call Bo" };
  assert.deepEqual(await sendOnWayIn(rig.socket, callerOf(rig), message), { held: true });
  const dir = heldDir(rig.paths, rig.agent.id, "telegram");
  assert.deepEqual(
    await takeHeld(dir, "telegram:-100"),
    [{ ...message, at: rig.clock.now() }].map(
      ({ thread, text, at }) => ({ thread, text, at }),
    ),
  );
  assert.deepEqual(await takeHeld(heldDir(rig.paths, rig.agent.id), "telegram:-100"), []);
});

Deno.test("serveWayIn() holds a send named by an id once, however often it is sent again (a runner's retry after a lost reply, SCH-1)", async () => {
  await using rig = await wayIn();
  const thread = linkThread("main");
  const send = {
    connection: "link",
    thread,
    text: "Time to stretch.",
    id: "schedule:j-0123456789abcdefghij@2026-12-02T08:00:00.000Z",
  };
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await sendOnWayIn(rig.socket, callerOf(rig), send), { held: true });
  }
  const dir = heldDir(rig.paths, rig.agent.id);
  assert.deepEqual(await takeHeld(dir, thread), [{ thread, text: "Time to stretch.", at: rig.clock.now() }]);
  // Taken (printed) meanwhile, then sent again: still not held twice.
  await sendOnWayIn(rig.socket, callerOf(rig), send);
  assert.deepEqual(await takeHeld(dir, thread), []);
  // Another id, or none, is another message.
  await sendOnWayIn(rig.socket, callerOf(rig), {
    ...send,
    id: "schedule:j-0123456789abcdefghij@2026-12-03T08:00:00.000Z",
  });
  await sendOnWayIn(rig.socket, callerOf(rig), { connection: "link", thread, text: "Time to stretch." });
  // A firing asked again after a failed turn names its attempt (`#2`): held as any other.
  await sendOnWayIn(rig.socket, callerOf(rig), { ...send, id: `${send.id}#2` });
  assert.equal((await takeHeld(dir, thread)).length, 3);
  const bad = await failure(sendOnWayIn(rig.socket, callerOf(rig), { ...send, id: "../../etc" }));
  assert.equal(bridgeErrorCode(bad), "invalid");
});
