import assert from "node:assert/strict";
import { conversationState } from "../../../../core/harness/mod.ts";
import type { ConversationEvent, StoredEvent } from "../../../../core/harness/store/mod.ts";

const numbered = (events: ConversationEvent[]): StoredEvent[] =>
  events.map((event, i) => ({ n: i + 1, event }));
const call = (id: string) => ({ id, name: "run", arguments: "{}" });

Deno.test("conversationState() of an empty conversation has nothing waiting", () => {
  assert.deepEqual(conversationState([]), { last: 0, lastEnd: 0, pending: [], unansweredCalls: [] });
});

Deno.test("conversationState() finds a crashed turn, its messages and its calls left without a result (TRN-4)", () => {
  const events = numbered([
    { type: "message", text: "a", request: "r1", at: 1 },
    { type: "turn", turn: "t1", answers: [1], at: 1 },
    { type: "answer", turn: "t1", text: "A", answers: [1], at: 1 },
    { type: "message", text: "b", request: "r2", at: 2 },
    { type: "turn", turn: "t2", answers: [4], at: 2 },
    { type: "assistant", turn: "t2", text: "", tool_calls: [call("c1"), call("c2")], at: 2 },
    { type: "tool_result", turn: "t2", call: "c1", content: "ok", not_made: false, at: 2 },
    { type: "message", text: "c", request: "r3", at: 3 },
  ]);
  const state = conversationState(events);
  assert.deepEqual({ ...state, pending: state.pending.map((m) => m.n) }, {
    last: 8,
    lastEnd: 3,
    pending: [4, 8],
    openTurn: { n: 5, turn: "t2" },
    unansweredCalls: [{ id: "c2", name: "run" }],
  });
});

Deno.test("conversationState() counts a turn that ended in an error as ended: its messages are answered", () => {
  const state = conversationState(numbered([
    { type: "message", text: "a", request: "r1", at: 1 },
    { type: "turn", turn: "t1", answers: [1], at: 1 },
    { type: "error", turn: "t1", message: "Your agent could not answer: the provider failed", at: 1 },
  ]));
  assert.deepEqual(state, { last: 3, lastEnd: 3, pending: [], unansweredCalls: [] });
});
