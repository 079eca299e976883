import assert from "node:assert/strict";
import { join } from "node:path";
import { bridgeErrorCode } from "../../../../link_bridge/mod.ts";
import type { OpenStore } from "../../../../core/harness/store/mod.ts";
import { FakeClock, settle } from "../../../support/mod.ts";
import {
  announcingStarts,
  countingStarts,
  driverCommand,
  isRunning,
  makeFifo,
  nextStart,
  startsCounted,
} from "../../../support/store_driver.ts";
import { message, SHORT_TURN_ANSWERS, shortTurnCalls } from "../../../support/store_contract.ts";
import { startStoreRig } from "./_support.ts";

/** A short turn's dozen store calls (TRN-16), one after another as a turn makes them. */
async function aShortTurn(store: OpenStore): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (const call of shortTurnCalls(store)) answers.push(await call());
  return answers;
}

Deno.test("serveStoreBridge() with a serve driver: one process answers a turn's 12 calls (TRN-16)", async () => {
  await using rig = await startStoreRig((root) => ({
    kind: "program",
    command: countingStarts(join(root, "pids"), driverCommand("files", join(root, "chats"), true)),
    serve: true,
  }));
  await using store = rig.open();
  assert.deepEqual(await aShortTurn(store), SHORT_TURN_ANSWERS);
  assert.equal((await startsCounted(join(rig.root, "pids"))).length, 1);
});

Deno.test("serveStoreBridge() with a one-shot driver: 12 processes for 12 calls (TRN-16)", async () => {
  await using rig = await startStoreRig((root) => ({
    kind: "program",
    command: countingStarts(join(root, "pids"), driverCommand("sqlite", join(root, "chats.sqlite"), false)),
    serve: false,
  }));
  await using store = rig.open();
  assert.deepEqual(await aShortTurn(store), SHORT_TURN_ANSWERS);
  assert.equal(new Set(await startsCounted(join(rig.root, "pids"))).size, 12);
});

Deno.test("serveStoreBridge() stops a driver call past 30 s and answers deadline (TRN-16)", async () => {
  const clock = new FakeClock();
  await using rig = await startStoreRig((root) => ({
    kind: "program",
    command: announcingStarts(join(root, "starts"), ["sh", "-c", "read line; exec sleep 600"]),
    serve: true,
  }), { clock });
  await makeFifo(join(rig.root, "starts"));
  await using store = rig.open();
  let settled = false;
  const call = store.read("link:main");
  call.then(() => (settled = true), () => (settled = true));
  const pid = await nextStart(join(rig.root, "starts"));
  await clock.waitForSleepers(1);
  await clock.advance(29_999);
  await settle();
  assert.equal(settled, false, "still waiting at 29,999 ms");
  await clock.advance(1);
  const err = await call.then(() => undefined, (e) => e);
  assert.equal(bridgeErrorCode(err), "deadline");
  assert.equal(err.code, "TIMEOUT");
  assert.equal(isRunning(pid), false, "the driver was stopped");
});

Deno.test("serveStoreBridge() keeps a program driver's credential and words on its side (TRN-14)", async () => {
  const secret = "pg-password-4b1d";
  // A driver that says its connection string in every error, on stdout and stderr.
  const script = 'read line; echo "cannot reach postgres://link:$STORE_PASSWORD@db/chats" >&2; ' +
    'echo "{\\"error\\":{\\"code\\":\\"SERVICE_FAILED\\",\\"message\\":\\"postgres://link:$STORE_PASSWORD@db refused\\",' +
    '\\"hint\\":\\"password $STORE_PASSWORD\\"}}"';
  await using rig = await startStoreRig(() => ({
    kind: "program",
    command: ["sh", "-c", script],
    serve: false,
    env: { STORE_PASSWORD: secret },
  }));
  await using store = rig.open();
  const calls = [
    () => store.read("link:main"),
    () => store.list(),
    () => store.append("link:main", 1, message("x")),
  ];
  for (const call of calls) {
    const err = await call().then(() => undefined, (e) => e);
    assert.equal(bridgeErrorCode(err), "refused");
    assert.match(err.message, /^Cannot .*: the store failed, and the bridge's log says why$/);
    assert.equal(err.hint, undefined);
    assert.ok(!`${err.message} ${err.hint} ${JSON.stringify(err.cause)}`.includes(secret));
  }
});

Deno.test("serveStoreBridge() tells a program driver whose conversations it keeps (LNK_STORE_AGENT)", async () => {
  const script =
    'read line; printf \'{"ok":true,"conversations":["%s","%s"]}\\n\' "$LNK_STORE_AGENT" "$LNK_STORE_OWNER"';
  await using rig = await startStoreRig(() => ({
    kind: "program",
    command: ["sh", "-c", script],
    serve: false,
  }));
  await using store = rig.open();
  assert.deepEqual(await store.list(), [rig.agent.id, rig.agent.owner]);
});
