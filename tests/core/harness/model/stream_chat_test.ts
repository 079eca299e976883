import assert from "node:assert/strict";
import { Secret } from "../../../../core/base/mod.ts";
import {
  type ChatEvent,
  type ChatRequest,
  collectChat,
  costOf,
  DEFAULT_PRICE,
  streamChat,
  type ToolDefinition,
} from "../../../../core/harness/model/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";

const HELLO: ChatRequest = {
  model: "fake-model",
  messages: [{ role: "system", content: "You are terse." }, { role: "user", content: "Say hello" }],
};

async function events(run: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of run) out.push(event);
  return out;
}

Deno.test("streamChat() streams text deltas, then usage, then finish", async () => {
  await using model = await serveFakeModel();
  model.reply("Hello there, friend", { usage: { prompt_tokens: 12, completion_tokens: 4 } });
  const got = await events(streamChat(HELLO, { baseUrl: model.url }));
  assert.deepEqual(got, [
    { type: "text", text: "Hello " },
    { type: "text", text: "there, " },
    { type: "text", text: "friend" },
    { type: "usage", usage: { promptTokens: 12, completionTokens: 4, cachedTokens: 0 } },
    { type: "finish", reason: "stop" },
  ]);
  const sent = await model.nextRequest();
  assert.deepEqual(sent.body, {
    model: "fake-model",
    messages: HELLO.messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  assert.equal(sent.headers["accept"], "text/event-stream");
});

Deno.test("streamChat() sends the key as a bearer token", async () => {
  await using model = await serveFakeModel({ key: "sk-right" });
  const answer = await collectChat(streamChat(HELLO, { baseUrl: model.url, key: new Secret("sk-right") }));
  assert.equal(answer.text, "Hello from the fake model");
  assert.equal((await model.nextRequest()).headers["authorization"], "Bearer sk-right");
});

Deno.test("streamChat() assembles several tool calls whose arguments are split mid-JSON", async () => {
  await using model = await serveFakeModel();
  model.replyToolCalls([
    { id: "call_a", name: "read_file", args: { path: "notes/today.md", lines: [1, 20] } },
    { id: "call_b", name: "web_search", args: { query: 'weather in "Lisbon"', max: 3 } },
    { id: "call_c", name: "now", args: {} },
  ], { text: "Let me look.", argPieces: 5 });
  const got = await events(streamChat(HELLO, { baseUrl: model.url }));
  const calls = got.filter((e) => e.type === "tool_call");
  assert.deepEqual(calls, [
    {
      type: "tool_call",
      call: {
        id: "call_a",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"notes/today.md","lines":[1,20]}' },
      },
    },
    {
      type: "tool_call",
      call: {
        id: "call_b",
        type: "function",
        function: { name: "web_search", arguments: '{"query":"weather in \\"Lisbon\\"","max":3}' },
      },
    },
    {
      type: "tool_call",
      call: { id: "call_c", type: "function", function: { name: "now", arguments: "{}" } },
    },
  ]);
  assert.deepEqual(got.at(-1), { type: "finish", reason: "tool_calls" });
  const answer = await collectChat(streamChat(HELLO, { baseUrl: model.url }));
  assert.equal(answer.text, "Hello from the fake model");
});

Deno.test("collectChat() gathers an answer with tool calls into the assistant message the history keeps", async () => {
  await using model = await serveFakeModel();
  model.replyToolCall("now", { zone: "UTC" }, { id: "call_1" });
  const seen: string[] = [];
  const answer = await collectChat(streamChat(HELLO, { baseUrl: model.url }), {
    onEvent: (e) => void seen.push(e.type),
  });
  const call = {
    id: "call_1",
    type: "function" as const,
    function: { name: "now", arguments: '{"zone":"UTC"}' },
  };
  assert.deepEqual(answer.message, { role: "assistant", content: null, tool_calls: [call] });
  assert.deepEqual(answer.toolCalls, [call]);
  assert.equal(answer.finishReason, "tool_calls");
  assert.deepEqual(seen, ["tool_call", "usage", "finish"]);
});

Deno.test("streamChat() reports usage with cached tokens, and costOf() prices it at MDL-1's default", async () => {
  await using model = await serveFakeModel();
  model.reply("ok", {
    usage: { prompt_tokens: 2_000_000, completion_tokens: 1_000_000, cached_tokens: 500_000 },
  });
  const answer = await collectChat(streamChat(HELLO, { baseUrl: model.url }));
  assert.deepEqual(answer.usage, {
    promptTokens: 2_000_000,
    completionTokens: 1_000_000,
    cachedTokens: 500_000,
  });
  // $0.10 per million in, $0.50 per million out (MDL-1).
  assert.equal(costOf(answer.usage!, DEFAULT_PRICE), 0.7);
});

Deno.test("streamChat() with stream false reads one JSON answer into the same events", async () => {
  await using model = await serveFakeModel();
  model.reply("Whole answer", {
    usage: { prompt_tokens: 3, completion_tokens: 2 },
    reasoning: "Think first",
  });
  const got = await events(streamChat(HELLO, { baseUrl: model.url, stream: false }));
  assert.deepEqual(got, [
    { type: "reasoning", text: "Think first" },
    { type: "text", text: "Whole answer" },
    { type: "usage", usage: { promptTokens: 3, completionTokens: 2, cachedTokens: 0 } },
    { type: "finish", reason: "stop" },
  ]);
  const sent = await model.nextRequest();
  assert.deepEqual(sent.body, { model: "fake-model", messages: HELLO.messages, stream: false });
});

Deno.test("streamChat() reads a JSON answer sent back to a streamed request", async () => {
  await using model = await serveFakeModel();
  // A server that ignores `stream` and answers with one JSON body.
  model.replyGarbage(
    JSON.stringify({ choices: [{ message: { content: "plain" }, finish_reason: "stop" }] }),
    { contentType: "application/json" },
  );
  const got = await events(streamChat(HELLO, { baseUrl: model.url }));
  assert.deepEqual(got, [{ type: "text", text: "plain" }, { type: "finish", reason: "stop" }]);
});

Deno.test("streamChat() knows SSE by its first bytes when the content type is wrong", async () => {
  await using model = await serveFakeModel();
  const chunk = JSON.stringify({
    choices: [{ index: 0, delta: { content: "sniffed" }, finish_reason: "stop" }],
  });
  model.replyGarbage(`: keep-alive\n\ndata: ${chunk}\n\ndata: [DONE]\n\n`, { contentType: "text/plain" });
  const got = await events(streamChat(HELLO, { baseUrl: model.url }));
  assert.deepEqual(got, [{ type: "text", text: "sniffed" }, { type: "finish", reason: "stop" }]);
});

Deno.test("streamChat() streams reasoning apart from the text", async () => {
  await using model = await serveFakeModel();
  model.reply("Yes", { reasoning: "Maybe" });
  const answer = await collectChat(streamChat(HELLO, { baseUrl: model.url }));
  assert.deepEqual([answer.reasoning, answer.text], ["Maybe", "Yes"]);
});

Deno.test("streamChat() sends the same prompt and tools as the same bytes on every call (PRN-2)", async () => {
  await using model = await serveFakeModel();
  const tool: ToolDefinition = {
    type: "function",
    function: {
      name: "read_file",
      description: "Reads a file",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  };
  const request: ChatRequest = { ...HELLO, tools: [tool], toolChoice: "auto" };
  await collectChat(streamChat(request, { baseUrl: model.url }));
  // The same inputs, built again with their keys in another order.
  const rebuilt: ChatRequest = {
    toolChoice: "auto",
    tools: [{
      function: { parameters: tool.function.parameters, description: "Reads a file", name: "read_file" },
      type: "function",
    }],
    messages: [{ content: "You are terse.", role: "system" }, { content: "Say hello", role: "user" }],
    model: "fake-model",
  };
  await collectChat(streamChat(rebuilt, { baseUrl: model.url }));
  const [first, second] = [await model.nextRequest(), await model.nextRequest()];
  assert.equal(second.rawBody, first.rawBody);
  assert.deepEqual((first.body as { tools: unknown }).tools, [tool]);
});

Deno.test("streamChat() yields each chunk as it arrives, before the answer ends", async () => {
  await using model = await serveFakeModel();
  const control = model.reply("one two three", {
    paced: true,
    usage: { prompt_tokens: 5, completion_tokens: 3 },
  });
  const iterator = streamChat(HELLO, { baseUrl: model.url })[Symbol.asyncIterator]();
  control.step(2); // the role chunk and "one "
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "one " });
  control.step();
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "two " });
  control.release();
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "three" });
  assert.deepEqual((await iterator.next()).value, {
    type: "usage",
    usage: { promptTokens: 5, completionTokens: 3, cachedTokens: 0 },
  });
  assert.deepEqual((await iterator.next()).value, { type: "finish", reason: "stop" });
  assert.equal((await iterator.next()).done, true);
});

Deno.test("streamChat() lets go of the connection when its reader stops early", async () => {
  await using model = await serveFakeModel();
  const control = model.reply("one two three", { stallAfter: 2 });
  for await (const event of streamChat(HELLO, { baseUrl: model.url })) {
    assert.deepEqual(event, { type: "text", text: "one " });
    break;
  }
  await control.done;
  assert.equal(model.requests.length, 1);
});
