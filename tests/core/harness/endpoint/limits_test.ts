import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock } from "../../../support/mod.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

Deno.test("a message longer than the model's context is refused with a hint, and nothing is written or sent", async () => {
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, { agents: [{ contextTokens: 2000, tools: "none" }] });
  await using endpoint = await harness.open();
  const got = await prompt(endpoint, "word ".repeat(4000));
  assert.ok(got.result.kind === "error");
  const error = got.result.error as { code: string; message: string; hint: string };
  assert.equal(error.code, "REFUSED");
  assert.match(
    error.message,
    /^Your agent could not answer: the message is longer than the model's context \(about 5000 tokens/,
  );
  assert.match(error.hint, /shorter parts/);
  assert.deepEqual(await harness.events(), []);
  assert.equal(model.requests.length, 0);
  // A message that fits is answered as usual.
  model.reply("Short is fine.");
  assert.equal((await prompt(endpoint, "short")).text, "Short is fine.");
});

Deno.test("session/cancel ends the running turn with what it has: stopReason cancelled", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("never sent", { hold: true });
  await using harness = await harnessFixture(model);
  await using one = await harness.open();
  await using two = await harness.open();
  const answering = prompt(one, "long task");
  await held.taken;
  const cancelled = await two.call("session/cancel", { sessionId: "link:main" });
  assert.deepEqual(cancelled.result, { _meta: { "link.local/cancelled": true } });
  const got = await answering;
  assert.equal(got.stopReason, "cancelled");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "long task"],
    [2, "turn", [1]],
    [3, "answer", "", [1]],
  ]);
  held.release();
});

Deno.test("a running turn renews its lease every [turns] renew, and no other holder can take it while fresh (TRN-1, TRN-7)", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("done", { hold: true });
  const clock = new FakeClock();
  const t0 = clock.now();
  await using harness = await harnessFixture(model, { clock });
  await using endpoint = await harness.open();
  const answering = prompt(endpoint, "hi");
  await held.taken;
  const store = harness.agents[0]!.store;
  assert.equal((await store.leaseRead("link:main"))?.renewed_at_ms, t0);
  // The keeper sleeps again once its renewal is written: wait for that, never for time.
  const sleepers = clock.pending;
  await clock.advance(10_000);
  await clock.waitForSleepers(sleepers);
  assert.equal((await store.leaseRead("link:main"))?.renewed_at_ms, t0 + 10_000);
  await clock.advance(10_000);
  await clock.waitForSleepers(sleepers);
  assert.equal((await store.leaseRead("link:main"))?.renewed_at_ms, t0 + 20_000);
  const other = { holder: { boot: "elsewhere", pid: 1, start: "1" }, turn: "x", renewed_at_ms: clock.now() };
  assert.equal(await store.leaseTake("link:main", other, { lapseMs: 60_000, nowMs: clock.now() }), undefined);
  held.release();
  assert.equal((await answering).text, "done");
  assert.equal(await store.leaseRead("link:main"), undefined);
});

Deno.test("the caller's next challenge lives past an answer longer than its 5 s: the connection goes on (BRG-12)", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("Slow answer.", { hold: true });
  const clock = new FakeClock();
  await using harness = await harnessFixture(model, { clock });
  await using endpoint = await harness.open();
  const answering = prompt(endpoint, "take your time");
  await held.taken;
  await clock.advance(9_000);
  held.release();
  assert.equal((await answering).text, "Slow answer.");
  const waiting = endpoint.request("GET", "/_link/recover?conversation=link%3Amain&wait=600000");
  assert.deepEqual(await waiting, { status: 200, text: "[]" });
  model.reply("Next.");
  assert.equal((await prompt(endpoint, "and now?")).text, "Next.");
});

Deno.test("a wait on /_link/recover longer than 5 s leaves the connection's next challenge alive for the ack", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("Done at last.", { hold: true });
  const clock = new FakeClock();
  await using harness = await harnessFixture(model, { clock });
  const leaving = await harness.open();
  const answering = prompt(leaving, "first");
  await held.taken;
  await leaving[Symbol.asyncDispose]();
  await answering;
  await using chat = await harness.open();
  const sleepers = clock.pending;
  const waiting = chat.request("GET", "/_link/recover?conversation=link%3Amain&wait=600000");
  await clock.waitForSleepers(sleepers + 1); // the wait has begun
  await clock.advance(9_000);
  held.release();
  const kept = JSON.parse((await waiting).text) as { id: string; answer: string }[];
  assert.deepEqual(kept.map((k) => k.answer), ["Done at last."]);
  assert.deepEqual(await chat.request("POST", "/_link/recover/ack", { ids: [kept[0]!.id] }), {
    status: 200,
    text: '{"acked":1}',
  });
});
