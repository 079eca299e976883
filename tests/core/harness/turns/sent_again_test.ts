import assert from "node:assert/strict";
import { promptAgent } from "../../../../connections/chat/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, shape } from "../../../support/harness_fixture.ts";

const ASKED = { thread: "telegram:42", request: "telegram:1001", text: "what is on today?" };

Deno.test("a message a carrier sends again after its restart, while the first turn runs, is answered once: the second send gets the first turn's answer (CON-9, TRN-9)", async () => {
  await using model = await serveFakeModel();
  const first = model.reply("Two meetings.", { hold: true });
  await using harness = await harnessFixture(model);
  // The carrier sends the message, then dies while the turn runs (its connection closes).
  const dead = await harness.open();
  const answering = promptAgent(dead, { ...ASKED, onText: () => {} }).catch((err) => err);
  await first.taken;
  await dead[Symbol.asyncDispose]();
  await answering;
  // Started again, it finds nothing kept yet and sends the same message again; then the turn ends.
  await using again = await harness.open();
  const pieces: string[] = [];
  const resent = promptAgent(again, { ...ASKED, onText: (t) => pieces.push(t) });
  first.release();
  assert.equal(await resent, "Two meetings.");
  assert.equal(model.requests.length, 1, "the model was asked twice");
  const events = shape(await harness.events("telegram:42"));
  assert.deepEqual(events, [
    [1, "message", ASKED.text],
    [2, "turn", [1]],
    [3, "answer", "Two meetings.", [1]],
  ]);
  assert.deepEqual(await harness.agents[0]!.kept.list(), [], "the answer is kept still: it would come twice");
});

Deno.test("a message sent again after its answer was kept for it gets that answer, and the model is not asked again", async () => {
  await using model = await serveFakeModel();
  const first = model.reply("Done.", { hold: true });
  await using harness = await harnessFixture(model);
  const dead = await harness.open();
  const answering = promptAgent(dead, { ...ASKED, onText: () => {} }).catch((err) => err);
  await first.taken;
  await dead[Symbol.asyncDispose]();
  await answering;
  first.release();
  await harness.server.agents[0]!.settled();
  assert.equal((await harness.agents[0]!.kept.list()).length, 1);
  await using again = await harness.open();
  assert.equal(await promptAgent(again, { ...ASKED, onText: () => {} }), "Done.");
  assert.equal(model.requests.length, 1);
  assert.deepEqual(await harness.agents[0]!.kept.list(), []);
});

Deno.test("the same words under a new request are a new message, answered anew", async () => {
  await using model = await serveFakeModel();
  model.reply("One.");
  model.reply("Two.");
  await using harness = await harnessFixture(model);
  await using endpoint = await harness.open();
  assert.equal(await promptAgent(endpoint, { ...ASKED, onText: () => {} }), "One.");
  assert.equal(
    await promptAgent(endpoint, { ...ASKED, request: "telegram:1002", onText: () => {} }),
    "Two.",
  );
  assert.equal(model.requests.length, 2);
});

Deno.test("a message sent again after its answer went to a caller that never read it gets that answer from the conversation, and the model is not asked again (SCH-1)", async () => {
  await using model = await serveFakeModel();
  model.reply("Written to no one.");
  await using harness = await harnessFixture(model);
  // The first caller got the whole answer written to it, as a caller that died with it unread would.
  await using first = await harness.open();
  assert.equal(await promptAgent(first, { ...ASKED, onText: () => {} }), "Written to no one.");
  assert.deepEqual(await harness.agents[0]!.kept.list(), []);
  await using again = await harness.open();
  const resent = await promptAgent(again, { ...ASKED, unanswered: "fail", onText: () => {} });
  assert.equal(resent, "Written to no one.");
  assert.equal(model.requests.length, 1, "the model was asked twice");
  assert.deepEqual(await harness.agents[0]!.kept.list(), [], "the answer taken is let go");
  assert.deepEqual(shape(await harness.events("telegram:42")), [
    [1, "message", ASKED.text],
    [2, "turn", [1]],
    [3, "answer", "Written to no one.", [1]],
  ]);
});

Deno.test("a message sent again whose first turn ended in an error gets that failure, never a wait for an answer that will not come; the model is not asked again", async () => {
  await using model = await serveFakeModel();
  model.replyError(400, { error: { message: "bad request" } });
  await using harness = await harnessFixture(model);
  await using first = await harness.open();
  await promptAgent(first, { ...ASKED, onText: () => {} }).catch((err) => err);
  assert.deepEqual((await harness.events("telegram:42")).map((e) => e.event.type), [
    "message",
    "turn",
    "error",
  ]);
  // Sent again with the same request, as a runner whose bridge was killed mid-answer does.
  await using again = await harness.open();
  const resent = await promptAgent(again, { ...ASKED, unanswered: "fail", failed: "throw", onText: () => {} })
    .then(() => undefined, (err) => err);
  assert.equal(resent?.code, "TURN_FAILED", String(resent));
  assert.equal(model.requests.length, 1);
});
