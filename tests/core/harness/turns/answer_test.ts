import assert from "node:assert/strict";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

Deno.test("a message is answered on its request, streamed as the model writes it (U-1)", async () => {
  await using model = await serveFakeModel();
  model.reply("Hello there, friend.", { chunks: ["Hello ", "there, ", "friend."] });
  await using harness = await harnessFixture(model);
  await using endpoint = await harness.open();
  const got = await prompt(endpoint, "hi");
  assert.equal(got.text, "Hello there, friend.");
  assert.equal(got.stopReason, "end_turn");
  assert.deepEqual(
    got.updates.map((u) => (u.content as { text: string }).text),
    ["Hello ", "there, ", "friend."],
  );
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "hi"],
    [2, "turn", [1]],
    [3, "answer", "Hello there, friend.", [1]],
  ]);
  const sent = (await model.requests[0]!.body) as { messages: unknown[] };
  assert.deepEqual(sent.messages, [
    { role: "system", content: "You are a test agent." },
    { role: "user", content: "hi" },
  ]);
});
