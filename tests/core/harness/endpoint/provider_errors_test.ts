import assert from "node:assert/strict";
import { setLogSink } from "../../../../core/base/mod.ts";
import { type FakeModel, serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock } from "../../../support/mod.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

interface Case {
  name: string;
  script(model: FakeModel): void;
  /** What the chat is told: the text streamed before the failure may or may not have come when the connection drops. */
  says: string | RegExp;
  /** The provider's own words, which only the harness's log holds (MDL-2). */
  logged: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    name: "a refused key (401)",
    script: (m) => m.replyError(401, { error: { message: "Incorrect API key provided: sk-abc" } }),
    says: "Your agent could not answer: the provider refused the key",
    logged: { kind: "refused_key", status: 401, providerMessage: "Incorrect API key provided: sk-abc" },
  },
  {
    name: "a rate limit (429)",
    script: (m) => m.replyError(429, { error: { message: "Slow down" } }, { "retry-after": "20" }),
    says: "Your agent could not answer: the provider is limiting requests",
    logged: { kind: "rate_limited", status: 429, providerMessage: "Slow down", retryAfterMs: 20_000 },
  },
  {
    name: "a server error (500)",
    script: (m) => m.replyError(500, { error: { message: "upstream exploded" } }),
    says: "Your agent could not answer: the provider failed (HTTP 500)",
    logged: { kind: "provider_failed", status: 500, providerMessage: "upstream exploded" },
  },
  {
    name: "garbage instead of an answer",
    script: (m) => m.replyGarbage("<html>502 Bad Gateway</html>"),
    says: "Your agent could not answer: the provider's reply is not a chat completion",
    logged: { kind: "garbage", providerMessage: "text/html: <html>502 Bad Gateway</html>" },
  },
  {
    name: "a stream ended before its finish",
    script: (m) => m.replyCutOff("This answer will never", { abrupt: false }),
    says: "This answer \n\nYour agent could not answer: the provider's reply was cut off",
    logged: { kind: "cut_off" },
  },
  {
    name: "a connection dropped mid-stream",
    script: (m) => m.replyCutOff("This answer will never", { abrupt: true }),
    says: /^(This answer[^\n]*\n\n)?Your agent could not answer: the provider's reply was cut off$/,
    logged: { kind: "cut_off" },
  },
  {
    name: "an error sent mid-stream",
    script: (m) => m.replyStreamError("model overloaded", { text: "Partly" }),
    says: "Partly\n\nYour agent could not answer: the provider failed mid-answer",
    logged: { kind: "provider_failed", providerMessage: "model overloaded" },
  },
];

for (const c of CASES) {
  Deno.test(`a provider's failure, ${c.name}, is a clear answer in the chat and its words are in the log (MDL-2)`, async () => {
    const lines: string[] = [];
    const restore = setLogSink((line) => lines.push(line));
    try {
      await using model = await serveFakeModel();
      c.script(model);
      model.reply("Back again.");
      await using harness = await harnessFixture(model);
      await using endpoint = await harness.open();
      const failed = await prompt(endpoint, "hi");
      if (typeof c.says === "string") assert.equal(failed.text, c.says);
      else assert.match(failed.text, c.says);
      const error = failed.meta?.["link.local/error"] as { code: string; message: string };
      assert.equal(error.code, "PROVIDER_ERROR");
      assert.equal(error.message, failed.text.split("\n\n").at(-1));
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "The model provider failed");
      assert.ok(logged, lines.join("\n"));
      for (const [k, v] of Object.entries(c.logged)) assert.deepEqual(logged[k], v, k);
      // The conversation stays readable: the next message is answered, the failure not shown to the model.
      const again = await prompt(endpoint, "still there?");
      assert.equal(again.text, "Back again.");
      assert.deepEqual(shape(await harness.events()).map((e) => (e as unknown[])[1]), [
        "message",
        "turn",
        "error",
        "message",
        "turn",
        "answer",
      ]);
      const sent = model.requests[1]!.body as { messages: { role: string; content: string }[] };
      assert.deepEqual(sent.messages.slice(1), [
        { role: "user", content: "hi" },
        { role: "user", content: "still there?" },
      ]);
    } finally {
      restore();
    }
  });
}

Deno.test("a provider that sends nothing times out with a clear answer (MDL-2)", async () => {
  const restore = setLogSink(() => {});
  try {
    await using model = await serveFakeModel();
    const held = model.reply("too late", { hold: true });
    const clock = new FakeClock();
    await using harness = await harnessFixture(model, { clock });
    await using endpoint = await harness.open();
    const answering = prompt(endpoint, "hi");
    await held.taken;
    await clock.advance(60_000);
    const got = await answering;
    assert.equal(got.text, "Your agent could not answer: the provider sent nothing within 60 s");
    assert.deepEqual(shape(await harness.events()).at(-1), [
      3,
      "error",
      "Your agent could not answer: the provider sent nothing within 60 s",
    ]);
    held.release();
  } finally {
    restore();
  }
});

Deno.test("a provider that stops mid-answer is cut off after the stall with what it said kept in the chat (MDL-2)", async () => {
  const restore = setLogSink(() => {});
  try {
    await using model = await serveFakeModel();
    const stalled = model.reply("one two three four", { stallAfter: 3 });
    const clock = new FakeClock();
    await using harness = await harnessFixture(model, { clock });
    await using endpoint = await harness.open();
    let first!: () => void;
    const streamed = new Promise<void>((r) => (first = r));
    const answering = prompt(endpoint, "hi", { onUpdate: () => first() });
    await streamed;
    await clock.advance(60_000);
    const got = await answering;
    assert.match(
      got.text,
      /^one two (three )?\n\nYour agent could not answer: the provider stopped mid-answer for 60 s$/,
    );
    stalled.release();
  } finally {
    restore();
  }
});
