import {
  argsText,
  cutInto,
  estimateTokens,
  type FakeUsage,
  type ScriptedReply,
  splitWords,
} from "./scripted_reply.ts";

/** What a reply needs from its request to be written. */
export interface WireContext {
  id: string;
  model: string;
  created: number;
  promptTokens: number;
  includeUsage: boolean;
}

type Streamable = Extract<ScriptedReply, { kind: "text" | "tool_calls" | "cut_off" | "stream_error" }>;

/** The `data:` payloads of a streamed reply, `[DONE]` included where the reply ends normally. */
export function streamPayloads(reply: Streamable, ctx: WireContext): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id: ctx.id,
      object: "chat.completion.chunk",
      created: ctx.created,
      model: ctx.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const out = [chunk({ role: "assistant", content: "" })];
  if (reply.kind === "cut_off" || reply.kind === "stream_error") {
    const words = splitWords(reply.text);
    for (const word of words.slice(0, Math.max(1, Math.ceil(words.length / 2)))) {
      out.push(chunk({ content: word }));
    }
    if (reply.kind === "stream_error") {
      out.push(JSON.stringify({ error: { message: reply.message, code: reply.code } }));
    }
    return out;
  }
  if (reply.kind === "text") {
    for (const piece of splitWords(reply.reasoning ?? "")) out.push(chunk({ reasoning_content: piece }));
    for (const piece of reply.chunks ?? splitWords(reply.text)) out.push(chunk({ content: piece }));
    out.push(chunk({}, reply.finishReason ?? "stop"));
  } else {
    for (const piece of splitWords(reply.text ?? "")) out.push(chunk({ content: piece }));
    reply.calls.forEach((call, index) => {
      const id = call.id ?? `call_fake_${index}`;
      const head = { index, id, type: "function", function: { name: call.name, arguments: "" } };
      out.push(chunk({ tool_calls: [head] }));
      for (const piece of cutInto(argsText(call), reply.argPieces ?? 3)) {
        out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    out.push(chunk({}, "tool_calls"));
  }
  if (ctx.includeUsage) {
    out.push(JSON.stringify({
      id: ctx.id,
      object: "chat.completion.chunk",
      created: ctx.created,
      model: ctx.model,
      choices: [],
      usage: usageOf(reply, ctx),
    }));
  }
  out.push("[DONE]");
  return out;
}

/** The JSON body of a non-streamed reply. */
export function completionBody(
  reply: Extract<ScriptedReply, { kind: "text" | "tool_calls" }>,
  ctx: WireContext,
): string {
  const message: Record<string, unknown> = { role: "assistant", content: reply.text ?? null };
  if (reply.kind === "text" && reply.reasoning) message.reasoning_content = reply.reasoning;
  if (reply.kind === "tool_calls") {
    message.tool_calls = reply.calls.map((call, index) => ({
      id: call.id ?? `call_fake_${index}`,
      type: "function",
      function: { name: call.name, arguments: argsText(call) },
    }));
  }
  const finish = reply.kind === "text" ? reply.finishReason ?? "stop" : "tool_calls";
  return JSON.stringify({
    id: ctx.id,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: usageOf(reply, ctx),
  });
}

function usageOf(reply: Extract<ScriptedReply, { kind: "text" | "tool_calls" }>, ctx: WireContext) {
  const given: FakeUsage | undefined = reply.usage;
  const produced = reply.kind === "text"
    ? (reply.reasoning ?? "") + reply.text
    : (reply.text ?? "") + reply.calls.map((c) => c.name + argsText(c)).join("");
  const prompt = given?.prompt_tokens ?? ctx.promptTokens;
  const completion = given?.completion_tokens ?? estimateTokens(produced);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(given?.cached_tokens === undefined
      ? {}
      : { prompt_tokens_details: { cached_tokens: given.cached_tokens } }),
  };
}
