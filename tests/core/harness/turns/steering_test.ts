import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import type { StoredEvent } from "../../../../core/harness/store/mod.ts";
import { type GatedStore, gatedStore } from "./_support.ts";
import { harnessFixture, prompt, shape, watchTurnWrites } from "../../../support/harness_fixture.ts";

/** How many answers list message `n`: a message is answered exactly once. */
function answersOf(events: readonly StoredEvent[], n: number): number {
  return events.filter((e) => e.event.type === "answer" && e.event.answers.includes(n)).length;
}

Deno.test("a message mid-turn joins it: 202 with Link-Steered and no body, and the first request's answer addresses both (TRN-9, TRN-11)", async () => {
  await using model = await serveFakeModel();
  const first = model.reply("First part.", { hold: true });
  model.reply("Both answered.");
  const { wrapStore, turnWritten } = watchTurnWrites();
  await using harness = await harnessFixture(model, { agents: [{ wrapStore }] });
  await using one = await harness.open();
  await using two = await harness.open();
  await using raw = await harness.open();
  const answering = prompt(one, "one");
  await first.taken;
  await turnWritten;
  const steered = await prompt(two, "two");
  assert.deepEqual(steered.result, { kind: "steered" });
  const bare = await raw.request("POST", "/acp", {
    jsonrpc: "2.0",
    id: 9,
    method: "session/prompt",
    params: { sessionId: "link:main", prompt: [{ type: "text", text: "three" }] },
  });
  assert.deepEqual(bare, { status: 202, text: "" });
  first.release();
  const answered = await answering;
  assert.equal(answered.text, "First part.\n\nBoth answered.");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "one"],
    [2, "turn", [1]],
    [3, "message", "two"],
    [4, "message", "three"],
    [5, "assistant", "First part.", []],
    [6, "answer", "Both answered.", [1, 3, 4]],
  ]);
  const second = model.requests[1]!.body as { messages: { role: string; content: string }[] };
  // The model reads the steers after what it had said before they came.
  assert.deepEqual(second.messages.slice(1).map((m) => [m.role, m.content]), [
    ["user", "one"],
    ["assistant", "First part."],
    ["user", "two"],
    ["user", "three"],
  ]);
  assert.equal(model.requests.length, 2);
});

Deno.test("a message landing after the turn's last look, before its release, is answered once by the turn taking the lease again (TRN-10)", async () => {
  await using model = await serveFakeModel();
  model.reply("Answer one.");
  model.reply("Answer two.");
  let store!: GatedStore;
  await using harness = await harnessFixture(model, {
    agents: [{ wrapStore: (s) => (store = gatedStore(s)) }],
  });
  const pause = store.pauseBeforeRelease();
  await using one = await harness.open();
  await using two = await harness.open();
  const answering = prompt(one, "one");
  await pause.reached;
  assert.deepEqual((await prompt(two, "two")).result, { kind: "steered" });
  pause.open();
  assert.equal((await answering).text, "Answer one.\n\nAnswer two.");
  const events = await harness.events();
  assert.deepEqual(shape(events), [
    [1, "message", "one"],
    [2, "turn", [1]],
    [3, "answer", "Answer one.", [1]],
    [4, "message", "two"],
    [5, "turn", [4]],
    [6, "answer", "Answer two.", [4]],
  ]);
  assert.equal(answersOf(events, 4), 1);
  assert.deepEqual(await harness.agents[0]!.kept.list(), []);
});

Deno.test("a message landing after the release, before the turn looks again, is answered once by its own request (TRN-10)", async () => {
  await using model = await serveFakeModel();
  model.reply("Answer one.");
  const second = model.reply("Answer two.", { hold: true });
  let store!: GatedStore;
  await using harness = await harnessFixture(model, {
    agents: [{ wrapStore: (s) => (store = gatedStore(s)) }],
  });
  const pause = store.pauseAfterRelease();
  await using one = await harness.open();
  await using two = await harness.open();
  const answering = prompt(one, "one");
  await pause.reached;
  const own = prompt(two, "two");
  await second.taken;
  pause.open();
  assert.equal((await answering).text, "Answer one.");
  second.release();
  assert.equal((await own).text, "Answer two.");
  const events = await harness.events();
  assert.deepEqual(shape(events), [
    [1, "message", "one"],
    [2, "turn", [1]],
    [3, "answer", "Answer one.", [1]],
    [4, "message", "two"],
    [5, "turn", [4]],
    [6, "answer", "Answer two.", [4]],
  ]);
  assert.equal(answersOf(events, 4), 1);
});

Deno.test('[turns] busy = "queue": a message mid-turn waits for the turn to end and gets a turn of its own (TRN-11)', async () => {
  await using model = await serveFakeModel();
  const first = model.reply("Answer one.", { hold: true });
  model.reply("Answer two.");
  const { wrapStore, turnWritten } = watchTurnWrites();
  await using harness = await harnessFixture(model, { agents: [{ turns: { busy: "queue" }, wrapStore }] });
  await using one = await harness.open();
  await using two = await harness.open();
  const answering = prompt(one, "one");
  await first.taken;
  await turnWritten;
  const queued = prompt(two, "two");
  first.release();
  assert.equal((await answering).text, "Answer one.");
  assert.equal((await queued).text, "Answer two.");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "one"],
    [2, "turn", [1]],
    [3, "answer", "Answer one.", [1]],
    [4, "message", "two"],
    [5, "turn", [4]],
    [6, "answer", "Answer two.", [4]],
  ]);
});

Deno.test('[turns] busy = "refuse": a message mid-turn is refused and never written (TRN-11)', async () => {
  await using model = await serveFakeModel();
  const first = model.reply("Answer one.", { hold: true });
  await using harness = await harnessFixture(model, { agents: [{ turns: { busy: "refuse" } }] });
  await using one = await harness.open();
  await using two = await harness.open();
  const answering = prompt(one, "one");
  await first.taken;
  const refused = await prompt(two, "two");
  assert.ok(refused.result.kind === "error");
  assert.equal((refused.result.error as { code?: string }).code, "AGENT_BUSY");
  assert.match(String((refused.result.error as Error).message), /answering another message/);
  first.release();
  assert.equal((await answering).text, "Answer one.");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "one"],
    [2, "turn", [1]],
    [3, "answer", "Answer one.", [1]],
  ]);
});
