import assert from "node:assert/strict";
import type { ConversationEvent, OpenStore } from "../../../../core/harness/store/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

/** A real files store whose writing of a turn's event is held until the test lets it on. */
function turnHeldStore(inner: OpenStore) {
  const reached = Promise.withResolvers<void>();
  const gate = Promise.withResolvers<void>();
  const store: OpenStore = {
    ...inner,
    async append(conversation: string, n: number, event: ConversationEvent) {
      if (event.type === "turn") {
        reached.resolve();
        await gate.promise;
      }
      return await inner.append(conversation, n, event);
    },
  };
  return { store, inner, reached: reached.promise, open: () => gate.resolve() };
}

const AT = Date.UTC(2025, 0, 1);

Deno.test("runTurn() sends a new turn's first model call while the turn's event is written, and says nothing before it is (PRC-13)", async () => {
  await using model = await serveFakeModel();
  model.reply("Hello.");
  let held!: ReturnType<typeof turnHeldStore>;
  await using harness = await harnessFixture(model, {
    agents: [{ wrapStore: (s) => (held = turnHeldStore(s)).store }],
  });
  await using chat = await harness.open();
  const said: string[] = [];
  const answering = prompt(chat, "hi", { onUpdate: () => said.push("update") });
  await held.reached;
  const request = await model.nextRequest();
  const sent = request.body as { messages: { role: string; content: string }[] };
  assert.deepEqual(sent.messages.at(-1), { role: "user", content: "hi" });
  // The message is written before the call (the lease and TRN-8); the turn's event is not yet.
  assert.deepEqual({ events: shape(await harness.events()), said }, {
    events: [[1, "message", "hi"]],
    said: [],
  });
  held.open();
  assert.equal((await answering).text, "Hello.");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "hi"],
    [2, "turn", [1]],
    [3, "answer", "Hello.", [1]],
  ]);
  assert.equal(model.requests.length, 1);
});

Deno.test("runTurn() drops the first call unread when another message takes the turn's number, and begins the turn with both (TRN-8, TRN-9)", async () => {
  await using model = await serveFakeModel();
  model.reply("Never read.");
  model.reply("Both answered.");
  let held!: ReturnType<typeof turnHeldStore>;
  await using harness = await harnessFixture(model, {
    agents: [{ wrapStore: (s) => (held = turnHeldStore(s)).store }],
  });
  await using chat = await harness.open();
  const answering = prompt(chat, "one");
  await held.reached;
  await model.nextRequest();
  // Another process steers the conversation: its message lands on the number the turn's event wanted.
  const steer: ConversationEvent = { type: "message", text: "two", request: "r2", at: AT };
  assert.equal(await held.inner.append("link:main", 2, steer), "ok");
  held.open();
  assert.equal((await answering).text, "Both answered.");
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "one"],
    [2, "message", "two"],
    [3, "turn", [1, 2]],
    [4, "answer", "Both answered.", [1, 2]],
  ]);
  const second = model.requests[1]!.body as { messages: { role: string; content: string }[] };
  assert.deepEqual(second.messages.slice(1).map((m) => [m.role, m.content]), [["user", "one"], [
    "user",
    "two",
  ]]);
  assert.equal(model.requests.length, 2);
});
