import assert from "node:assert/strict";
import { modelMessages, NOT_COMPLETED, SUMMARY_OPENING } from "../../../../core/harness/compaction/mod.ts";
import type { ConversationEvent, StoredEvent } from "../../../../core/harness/store/mod.ts";

/** Numbers events from 1. */
function numbered(...events: ConversationEvent[]): StoredEvent[] {
  return events.map((event, i) => ({ n: i + 1, event }));
}

const msg = (text: string, from?: string): ConversationEvent => ({
  type: "message",
  text,
  request: "r",
  at: 0,
  ...(from ? { from } : {}),
});
const call = (id: string, name = "read_file", args = "{}"): ConversationEvent => ({
  type: "assistant",
  turn: "t",
  text: "",
  tool_calls: [{ id, name, arguments: args }],
  at: 0,
});
const result = (id: string, content: string, not_made = false): ConversationEvent => ({
  type: "tool_result",
  turn: "t",
  call: id,
  content,
  not_made,
  at: 0,
});
const answer = (text: string, turn = "t"): ConversationEvent => ({
  type: "answer",
  turn,
  text,
  answers: [1],
  at: 0,
});
const turn: ConversationEvent = { type: "turn", turn: "t", answers: [1], at: 0 };

Deno.test("modelMessages() pairs each tool call with its result, in order", () => {
  const events = numbered(msg("hi"), turn, call("c1"), result("c1", "file text"), answer("done"));
  assert.deepEqual(modelMessages(events, { system: "S" }), [
    { role: "system", content: "S" },
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c1", content: "file text" },
    { role: "assistant", content: "done" },
  ]);
});

Deno.test("modelMessages() holds a steered message until the calls out are answered (TRN-9)", () => {
  const events = numbered(
    msg("first"),
    turn,
    call("c1"),
    msg("also this", "bo"),
    result("c1", "ok"),
    answer("both"),
  );
  assert.deepEqual(modelMessages(events).map((m) => [m.role, m.content]), [
    ["user", "first"],
    ["assistant", null],
    ["tool", "ok"],
    ["user", "(from bo) also this"],
    ["assistant", "both"],
  ]);
});

Deno.test("modelMessages() puts a reply right after what its model had read, before the steers written meanwhile (TRN-9)", () => {
  const reply = (text: string, seen: number): ConversationEvent => ({
    type: "assistant",
    turn: "t",
    text,
    tool_calls: [],
    seen,
    at: 0,
  });
  const calling: ConversationEvent = { ...call("c1"), seen: 5 } as ConversationEvent;
  const events = numbered(
    msg("one"), // 1
    turn, // 2
    msg("two"), // 3: came while the model wrote the reply below, which had read up to 2
    reply("First part.", 2), // 4
    msg("three"), // 5
    calling, // 6: read up to 5
    msg("four"), // 7: came while the call ran
    result("c1", "ok"), // 8
    answer("All done."), // 9
  );
  assert.deepEqual(modelMessages(events).map((m) => [m.role, m.content]), [
    ["user", "one"],
    ["assistant", "First part."],
    ["user", "two"],
    ["user", "three"],
    ["assistant", null],
    ["tool", "ok"],
    ["user", "four"],
    ["assistant", "All done."],
  ]);
});

Deno.test("modelMessages() says a call not made was not completed, and answers calls left open (TRN-4)", () => {
  const crashed = numbered(msg("go"), turn, call("c1"), result("c1", "", true));
  assert.deepEqual(modelMessages(crashed).at(-1), {
    role: "tool",
    tool_call_id: "c1",
    content: NOT_COMPLETED,
  });
  const recovered = numbered(msg("go"), turn, call("c1"), result("c1", "The call was not made again.", true));
  assert.deepEqual(modelMessages(recovered).at(-1), {
    role: "tool",
    tool_call_id: "c1",
    content: "The call was not made again.",
  });
  const open = numbered(msg("go"), turn, call("c1"), msg("next"));
  assert.deepEqual(modelMessages(open).slice(-2), [
    { role: "tool", tool_call_id: "c1", content: NOT_COMPLETED },
    { role: "user", content: "next" },
  ]);
});

Deno.test("modelMessages() puts the latest summary in place of the events it covers; none is deleted", () => {
  const events = numbered(
    msg("old one"),
    turn,
    answer("old answer"),
    { type: "summary", through: 3, text: "first summary", at: 0 },
    msg("middle"),
    answer("middle answer"),
    { type: "summary", through: 6, text: "second summary", at: 0 },
    msg("new"),
  );
  assert.deepEqual(modelMessages(events, { system: "S" }), [
    { role: "system", content: "S" },
    { role: "user", content: `${SUMMARY_OPENING}\n\nsecond summary` },
    { role: "user", content: "new" },
  ]);
  assert.equal(events.length, 8);
});

Deno.test("modelMessages() drops a result whose call the summary covers, and an answer that repeats the turn's words", () => {
  const events = numbered(
    msg("go"),
    turn,
    {
      type: "assistant",
      turn: "t",
      text: "Looking.",
      tool_calls: [{ id: "c1", name: "run", arguments: "{}" }],
      at: 0,
    },
    { type: "summary", through: 3, text: "s", at: 0 },
    result("c1", "late"),
    {
      type: "assistant",
      turn: "t2",
      text: "Step one.",
      tool_calls: [{ id: "c2", name: "run", arguments: "{}" }],
      at: 0,
    },
    result("c2", "ok"),
    answer("Step one.", "t2"),
    { type: "error", turn: "t3", message: "model down", at: 0 },
  );
  assert.deepEqual(modelMessages(events).map((m) => [m.role, m.content]), [
    ["user", `${SUMMARY_OPENING}\n\ns`],
    ["assistant", "Step one."],
    ["tool", "ok"],
  ]);
});
