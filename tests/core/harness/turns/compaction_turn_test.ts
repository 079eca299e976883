import assert from "node:assert/strict";
import { setLogSink } from "../../../../core/base/mod.ts";
import { SUMMARY_OPENING, SUMMARY_REQUEST } from "../../../../core/harness/compaction/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

type Sent = { messages: { role: string; content: string }[] };

Deno.test("a conversation nearing the model's context is summarised before the next call; nothing is deleted (PRN-3)", async () => {
  const logs: string[] = [];
  const restore = setLogSink((line) => logs.push(line));
  using _restore = { [Symbol.dispose]: restore };
  await using model = await serveFakeModel({ defaultText: "Noted." });
  await using harness = await harnessFixture(model, { agents: [{ contextTokens: 600, tools: "none" }] });
  await using endpoint = await harness.open();
  const long = (i: number) => `Message ${i}: ${"the quick brown fox jumps over the lazy dog. ".repeat(8)}`;
  for (let i = 1; i <= 6; i++) {
    const got = await prompt(endpoint, long(i));
    assert.equal(got.result.kind, "answered", `message ${i}`);
  }
  const requests = model.requests.map((r) => r.body as Sent);
  const summarising = requests.findIndex((r) =>
    r.messages.some((m) => m.content.startsWith(SUMMARY_REQUEST))
  );
  assert.ok(summarising > 0, "a summary was asked of the model");
  // The call after the summary carries it in place of the early messages, the system prompt unchanged.
  const after = requests[summarising + 1]!;
  assert.equal(after.messages[0]!.role, "system");
  assert.deepEqual(after.messages[0], requests[0]!.messages[0]);
  assert.ok(after.messages[1]!.content.startsWith(SUMMARY_OPENING));
  assert.ok(!after.messages.some((m) => m.content === long(1)), "message 1 is summarised, not resent");
  // Every event is still stored: the summary is one more event, in its place.
  const events = shape(await harness.events());
  assert.ok(events.some((e) => (e as unknown[])[1] === "summary"));
  const messages = events.filter((e) => (e as unknown[])[1] === "message").map((e) => (e as unknown[])[2]);
  assert.deepEqual(messages, [1, 2, 3, 4, 5, 6].map(long));
  assert.equal(events.filter((e) => (e as unknown[])[1] === "answer").length, 6);
  assert.ok(logs.some((l) => JSON.parse(l).msg === "Compacting a conversation"));
});
