import assert from "node:assert/strict";
import {
  charTokens,
  checkMessageFits,
  compact,
  modelMessages,
  planCompaction,
  SUMMARY_REQUEST,
} from "../../../../core/harness/compaction/mod.ts";
import type { ConversationEvent, StoredEvent } from "../../../../core/harness/store/mod.ts";
import { FakeClock } from "../../../support/mod.ts";

/** A conversation of `turns` exchanges, each a message, a tool call, its result and an answer of `size` characters. */
function conversation(turns: number, size: number): StoredEvent[] {
  const events: ConversationEvent[] = [];
  for (let i = 0; i < turns; i++) {
    events.push(
      { type: "message", text: `q${i} ${"x".repeat(size)}`, request: `r${i}`, at: 0 },
      { type: "turn", turn: `t${i}`, answers: [], at: 0 },
      {
        type: "assistant",
        turn: `t${i}`,
        text: "",
        tool_calls: [{ id: `c${i}`, name: "run", arguments: "{}" }],
        at: 0,
      },
      {
        type: "tool_result",
        turn: `t${i}`,
        call: `c${i}`,
        content: "y".repeat(size),
        not_made: false,
        at: 0,
      },
      { type: "answer", turn: `t${i}`, text: `a${i}`, answers: [], at: 0 },
    );
  }
  return events.map((event, i) => ({ n: i + 1, event }));
}

Deno.test("planCompaction() leaves a conversation that fits", () => {
  const plan = planCompaction(conversation(2, 100), { contextTokens: 10_000 });
  assert.deepEqual(plan, { compact: false, tokens: plan.tokens, limit: 7500 });
  assert.ok(plan.tokens > 100 && plan.tokens < 200);
});

Deno.test("planCompaction() compacts near the context, keeping recent turns, never between a call and its result", () => {
  const events = conversation(10, 400); // about 210 tokens a turn, 2100 in all
  const plan = planCompaction(events, { contextTokens: 2000, keepTokens: 500 });
  assert.equal(plan.compact, true);
  assert.ok(plan.compact && plan.tokens > plan.limit);
  // Each turn takes 5 events; keeping about 500 tokens keeps the last two turns.
  assert.deepEqual(plan.compact && plan.through, 40);
  const messages = modelMessages([...events, {
    n: 51,
    event: { type: "summary", through: 40, text: "S", at: 0 },
  }]);
  assert.deepEqual(messages.map((m) => m.role), [
    "user",
    "user",
    "assistant",
    "tool",
    "assistant",
    "user",
    "assistant",
    "tool",
    "assistant",
  ]);
});

Deno.test("planCompaction() counts the system prompt and tools, and only summarises past the last summary", () => {
  const events = conversation(4, 400);
  assert.equal(planCompaction(events, { contextTokens: 2000 }).compact, false);
  assert.equal(planCompaction(events, { contextTokens: 2000, fixedTokens: 1000 }).compact, true);
  const summarised: StoredEvent[] = [...events, {
    n: 21,
    event: { type: "summary", through: 20, text: "S", at: 0 },
  }];
  const tight = planCompaction(summarised, { contextTokens: 10, keepTokens: 0 });
  assert.equal(tight.compact, false);
  // A call still waiting offers no boundary after it.
  const waiting: StoredEvent[] = [
    ...conversation(3, 400).slice(0, 13),
    { n: 14, event: { type: "message", text: "steered in", request: "r", at: 0 } },
    { n: 15, event: { type: "message", text: "and again", request: "r", at: 0 } },
  ];
  const plan = planCompaction(waiting, { contextTokens: 400, keepTokens: 0 });
  assert.deepEqual(plan.compact && plan.through, 12);
});

Deno.test("compact() asks the model for a summary of the events through the plan and returns the summary event", async () => {
  const clock = new FakeClock(1_000);
  const asked: string[] = [];
  const events = conversation(3, 10);
  const summary = await compact(events, {
    through: 10,
    clock,
    summarise: (text) => {
      asked.push(text);
      return Promise.resolve(" the summary \n");
    },
  });
  assert.deepEqual(summary, { type: "summary", through: 10, text: "the summary", at: 1_000 });
  assert.deepEqual(asked, [
    `${SUMMARY_REQUEST}\n\nUser: q0 xxxxxxxxxx\nAssistant called run with {}\nTool run answered: yyyyyyyyyy\n` +
    "Assistant: a0\nUser: q1 xxxxxxxxxx\nAssistant called run with {}\nTool run answered: yyyyyyyyyy\nAssistant: a1",
  ]);
});

Deno.test("compact() builds on the earlier summary and summarises a long transcript part by part", async () => {
  const events: StoredEvent[] = [
    ...conversation(2, 10),
    { n: 11, event: { type: "summary", through: 5, text: "earlier", at: 0 } },
    ...conversation(8, 2000).slice(5).map((e, i) => ({ n: 12 + i, event: e.event })),
  ];
  const asked: string[] = [];
  const summary = await compact(events, {
    through: 46,
    clock: new FakeClock(),
    maxInputTokens: 3000,
    summarise: (text) => {
      asked.push(text);
      return Promise.resolve(`summary ${asked.length}`);
    },
  });
  assert.equal(summary.text, `summary ${asked.length}`);
  assert.ok(asked.length >= 3, `asked ${asked.length} times`);
  assert.ok(
    asked[0]!.startsWith(`${SUMMARY_REQUEST}\n\nThe summary so far:\n\nearlier\n\nWhat came after it:\n\n`),
  );
  assert.ok(asked[1]!.includes("The summary so far:\n\nsummary 1\n\n"));
  assert.ok(asked.every((text) => charTokens(text) <= 3000));
  assert.equal(asked.join("").includes("q0 "), false);
});

Deno.test("compact() refuses an empty summary", async () => {
  await assert.rejects(
    compact(conversation(1, 10), {
      through: 5,
      clock: new FakeClock(),
      summarise: () => Promise.resolve("  "),
    }),
    { name: "LinkError", code: "PROVIDER_ERROR" },
  );
});

Deno.test("checkMessageFits() refuses a message longer than the model's context, with a hint", () => {
  checkMessageFits("x".repeat(4000), { contextTokens: 4000, fixedTokens: 1000 });
  assert.throws(() => checkMessageFits("x".repeat(40_000), { contextTokens: 8000, fixedTokens: 1000 }), {
    name: "LinkError",
    code: "REFUSED",
    message:
      "Cannot send this message: it is longer than the model's context (about 10000 tokens, and a message may take 5000)",
    hint: "Send it in shorter parts, or save it as a file in the agent's Home and ask the agent to read it",
  });
});
