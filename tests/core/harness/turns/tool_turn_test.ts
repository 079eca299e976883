import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

Deno.test("a tool-using turn: the call and its result are events, the model reads the result, the answer streams", async () => {
  await using model = await serveFakeModel();
  model.replyToolCall("run", { command: ["sh", "-c", "echo ran >> runs.txt; echo done"] }, { id: "call-1" });
  model.reply("I ran it.");
  await using harness = await harnessFixture(model);
  await using endpoint = await harness.open();
  const got = await prompt(endpoint, "run the thing");
  assert.equal(got.text, "I ran it.");
  assert.deepEqual(
    got.updates.filter((u) => u.sessionUpdate !== "agent_message_chunk").map((u) => [
      u.sessionUpdate,
      u.toolCallId,
      u.status,
    ]),
    [["tool_call", "call-1", "in_progress"], ["tool_call_update", "call-1", "completed"]],
  );
  const events = await harness.events();
  assert.deepEqual(shape(events).map((e) => (e as unknown[]).slice(0, 2)), [
    [1, "message"],
    [2, "turn"],
    [3, "assistant"],
    [4, "tool_result"],
    [5, "answer"],
  ]);
  assert.deepEqual(shape(events)[2], [3, "assistant", "", ["run"]]);
  assert.deepEqual(shape(events)[4], [5, "answer", "I ran it.", [1]]);
  const result = events[3]!.event;
  assert.ok(result.type === "tool_result" && /done/.test(result.content), JSON.stringify(result));
  assert.equal(await Deno.readTextFile(join(harness.dir, "agent0", "Home", "runs.txt")), "ran\n");
  const second = model.requests[1]!.body as { messages: { role: string; tool_call_id?: string }[] };
  assert.deepEqual(second.messages.map((m) => m.role), ["system", "user", "assistant", "tool"]);
  assert.equal(second.messages[3]!.tool_call_id, "call-1");
});

Deno.test("a tool call the model gets wrong is a result it reads, and the turn goes on", async () => {
  await using model = await serveFakeModel();
  model.replyToolCall("no_such_tool", {}, { id: "call-x" });
  model.reply("Sorry, that tool does not exist.");
  await using harness = await harnessFixture(model);
  await using endpoint = await harness.open();
  const got = await prompt(endpoint, "use a tool");
  assert.equal(got.text, "Sorry, that tool does not exist.");
  const result = (await harness.events())[3]!.event;
  assert.ok(result.type === "tool_result" && /no such tool/.test(result.content), JSON.stringify(result));
  assert.equal(got.updates.find((u) => u.sessionUpdate === "tool_call_update")?.status, "failed");
});
