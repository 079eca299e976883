import assert from "node:assert/strict";
import { setLogSink } from "../../../../core/base/mod.ts";
import { thisHolder } from "../../../../core/harness/mod.ts";
import { filesStore, type StoredEvent } from "../../../../core/harness/store/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { tempHome } from "../../../support/mod.ts";
import { prompt, shape } from "../../../support/harness_fixture.ts";
import { connect, createServedAgent, keptOf, socketIn, startHarness, storedEvents } from "./_support.ts";
import { join } from "node:path";

/** Checks a conversation: turns one after another, never two open at once, each message answered once. */
function assertOneTurnAtATime(events: readonly StoredEvent[]): void {
  let open: string | undefined;
  for (const { n, event } of events) {
    if (event.type === "turn") {
      assert.equal(open, undefined, `turn at ${n} began while turn ${open} was open`);
      open = event.turn;
    }
    if (event.type === "assistant" || event.type === "tool_result") assert.equal(event.turn, open);
    if (event.type === "answer" || event.type === "error") {
      assert.equal(event.turn, open, `an end at ${n} for a turn that is not the open one`);
      open = undefined;
    }
  }
  assert.equal(open, undefined);
  const messages = events.filter((e) => e.event.type === "message").map((e) => e.n);
  for (const m of messages) {
    const answering = events.filter((e) => e.event.type === "answer" && e.event.answers.includes(m));
    assert.equal(answering.length, 1, `message ${m} answered ${answering.length} times`);
  }
}

Deno.test("two harness processes on one conversation never run two turns at once, and answer every message once (TRN-7, TRN-8)", async () => {
  const restore = setLogSink(() => {});
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createServedAgent(home, model);
  const sockets = [socketIn(home, "a"), socketIn(home, "b")];
  const processes = await Promise.all(sockets.map((s) => startHarness(home, agent, s)));
  try {
    const replies = Array.from({ length: 24 }, (_, i) => model.reply(`Answer ${i}.`, { hold: true }));
    const endpoints = await Promise.all(Array.from({ length: 8 }, (_, i) => connect(agent, sockets[i % 2]!)));
    const all = Promise.all(endpoints.map((e, i) => prompt(e, `message ${i}`)));
    const released: number[] = [];
    for (let i = 0;; i++) {
      const next = await Promise.race([model.nextRequest(), all.then(() => undefined)]);
      if (!next) break;
      released.push(performance.now());
      replies[i]!.release();
    }
    const results = await all;
    for (const e of endpoints) await e[Symbol.asyncDispose]();
    for (let k = 1; k < model.requests.length; k++) {
      assert.ok(
        model.requests[k]!.receivedAt >= released[k - 1]!,
        `model call ${k} overlapped call ${k - 1}`,
      );
    }
    const events = await storedEvents(agent);
    assertOneTurnAtATime(events);
    assert.equal(events.filter((e) => e.event.type === "message").length, 8);
    assert.ok(results.every((r) => r.result.kind === "answered" || r.result.kind === "steered"));
  } finally {
    for (const p of processes) await p.stop();
    restore();
  }
});

Deno.test("two harness processes starting on a crashed turn: exactly one finishes it (TRN-7)", async () => {
  const restore = setLogSink(() => {});
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const agent = await createServedAgent(home, model);
  {
    await using store = filesStore(join(agent.agentDir, "chats"));
    const at = Date.now();
    await store.append("link:main", 1, { type: "message", text: "hi", request: "r1", at });
    await store.append("link:main", 2, { type: "turn", turn: "t1", answers: [1], at });
    const dead = new Deno.Command("true").spawn();
    await dead.status;
    const holder = { boot: thisHolder().boot, pid: dead.pid, start: "1" };
    await store.leaseTake("link:main", { holder, turn: "t1", renewed_at_ms: at }, {
      lapseMs: 60_000,
      nowMs: at,
    });
  }
  model.reply("Finished once.");
  const sockets = [socketIn(home, "a"), socketIn(home, "b")];
  const processes = await Promise.all(sockets.map((s) => startHarness(home, agent, s)));
  try {
    for (const socket of sockets) {
      await using bridge = await connect(agent, socket);
      await bridge.request("GET", "/_link/recover?conversation=link%3Amain&wait=60000");
    }
    assert.deepEqual(shape(await storedEvents(agent)), [
      [1, "message", "hi"],
      [2, "turn", [1]],
      [3, "answer", "Finished once.", [1]],
    ]);
    assert.equal(model.requests.length, 1);
    assert.deepEqual((await keptOf(agent).list()).map((k) => k.answer), ["Finished once."]);
  } finally {
    for (const p of processes) await p.stop();
    restore();
  }
});
