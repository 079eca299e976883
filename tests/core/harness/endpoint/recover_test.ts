import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape, watchTurnWrites } from "../../../support/harness_fixture.ts";

Deno.test("an answer finished after its caller went is kept, handed over until acknowledged, then gone (TRN-5, TRN-6, U-14)", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("Finished without you.", { hold: true });
  await using harness = await harnessFixture(model);
  const leaving = await harness.open();
  const answering = prompt(leaving, "take your time", {});
  await held.taken;
  await leaving[Symbol.asyncDispose]();
  await answering;
  held.release();
  await harness.server.agents[0]!.settled();
  assert.deepEqual(shape(await harness.events()).at(-1), [3, "answer", "Finished without you.", [1]]);
  await using bridge = await harness.open();
  const first = await bridge.request("GET", "/_link/recover");
  const kept = JSON.parse(first.text) as {
    id: string;
    conversation: string;
    answer: string;
    requests: string[];
  }[];
  assert.equal(first.status, 200);
  assert.deepEqual(kept.map((k) => [k.conversation, k.answer, k.requests.length]), [
    ["link:main", "Finished without you.", 1],
  ]);
  // Asked again before an ack, the same answer is handed over again, not dropped.
  assert.deepEqual(JSON.parse((await bridge.request("GET", "/_link/recover")).text), kept);
  assert.deepEqual(await bridge.request("POST", "/_link/recover/ack", { ids: [kept[0]!.id] }), {
    status: 200,
    text: '{"acked":1}',
  });
  assert.deepEqual(await bridge.request("GET", "/_link/recover"), { status: 200, text: "[]" });
  assert.deepEqual(await bridge.request("POST", "/_link/recover/ack", { ids: [kept[0]!.id] }), {
    status: 200,
    text: '{"acked":0}',
  });
});

Deno.test("an answer asked with link.local/receipt is kept though its caller read it, until acknowledged: a caller gone before its close came through loses nothing (LOC-5)", async () => {
  await using model = await serveFakeModel();
  model.reply("Read, never acknowledged.");
  model.reply("Read and acknowledged.");
  await using harness = await harnessFixture(model);
  await using caller = await harness.open();
  const unacked = await prompt(caller, "first", { meta: { "link.local/receipt": true } });
  assert.equal(unacked.text, "Read, never acknowledged.");
  const [id] = unacked.meta?.["link.local/kept"] as string[];
  const listed = async () =>
    (JSON.parse((await caller.request("GET", "/_link/recover")).text) as { id: string; answer: string }[])
      .map((k) => [k.id, k.answer]);
  assert.deepEqual(await listed(), [[id, "Read, never acknowledged."]]);
  const acked = await prompt(caller, "second", { meta: { "link.local/receipt": true } });
  const [second] = acked.meta?.["link.local/kept"] as string[];
  assert.deepEqual(await caller.request("POST", "/_link/recover/ack", { ids: [second] }), {
    status: 200,
    text: '{"acked":1}',
  });
  assert.deepEqual(await listed(), [[id, "Read, never acknowledged."]]);
  // Without the key, an answer read to its end is not kept.
  model.reply("Not kept.");
  const plain = await prompt(caller, "third");
  assert.equal(plain.meta?.["link.local/kept"], undefined);
  assert.deepEqual(await listed(), [[id, "Read, never acknowledged."]]);
});

Deno.test("a chat waiting on /_link/recover gets the answer of the turn its message joined, once it is kept (LOC-6)", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("Working on it.", { hold: true });
  model.reply("Both done.");
  const { wrapStore, turnWritten } = watchTurnWrites();
  await using harness = await harnessFixture(model, { agents: [{ wrapStore }] });
  const leaving = await harness.open();
  const answering = prompt(leaving, "first");
  await held.taken;
  await turnWritten;
  await leaving[Symbol.asyncDispose]();
  await answering;
  await using chat = await harness.open();
  assert.deepEqual((await prompt(chat, "second")).result, { kind: "steered" });
  const waiting = chat.request("GET", "/_link/recover?conversation=link%3Amain&wait=60000");
  held.release();
  const got = await waiting;
  const kept = JSON.parse(got.text) as { answer: string }[];
  assert.deepEqual(kept.map((k) => k.answer), ["Working on it.\n\nBoth done."]);
  assert.deepEqual(shape(await harness.events()).at(-1), [5, "answer", "Both done.", [1, 3]]);
});

Deno.test("a wait on /_link/recover ends empty when the conversation has nothing left to answer", async () => {
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model);
  await using chat = await harness.open();
  assert.deepEqual(await chat.request("GET", "/_link/recover?conversation=link%3Amain&wait=60000"), {
    status: 200,
    text: "[]",
  });
});
