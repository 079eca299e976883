import { type ChatEvent, finishReasonOf, usageOf } from "./chat_event.ts";
import { providerError, providerWords } from "./provider_error.ts";
import { SseDecoder } from "./sse_decoder.ts";
import type { TimedBody } from "./timed_body.ts";
import { ToolCallAssembler } from "./tool_call_assembler.ts";
import { ChatChunk } from "./wire_schemas.ts";

/**
 * The events of a streamed answer. It ends well at `[DONE]`, or at the end of the body once a
 * finish reason came; anything else is a cut-off answer.
 */
export async function* sseEvents(body: TimedBody): AsyncGenerator<ChatEvent, void, undefined> {
  const decoder = new SseDecoder();
  const tools = new ToolCallAssembler();
  let finish: string | undefined;
  let madeToolCalls = false;
  let done = false;
  while (!done) {
    const text = await body.next();
    const { events, badLine } = text === undefined ? decoder.end() : decoder.push(text);
    for (const data of events) {
      if (data.trim() === "[DONE]") {
        done = true;
        break;
      }
      const chunk = parseChunk(data);
      if (chunk.usage) yield { type: "usage", usage: usageOf(chunk.usage) };
      const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
      const delta = choice?.delta;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) yield { type: "reasoning", text: reasoning };
      if (delta?.content) yield { type: "text", text: delta.content };
      if (delta?.tool_calls?.length) tools.add(delta.tool_calls);
      if (choice?.finish_reason) {
        finish = choice.finish_reason;
        for (const call of tools.finish()) {
          madeToolCalls = true;
          yield { type: "tool_call", call };
        }
      }
    }
    if (!done && badLine !== undefined) {
      throw providerError({ kind: "garbage", providerMessage: badLine.slice(0, 2000) });
    }
    if (text === undefined) break;
  }
  if (!done && finish === undefined) {
    throw providerError({
      kind: "cut_off",
      providerMessage: "The stream ended before [DONE] or a finish reason",
    });
  }
  for (const call of tools.finish()) {
    madeToolCalls = true;
    yield { type: "tool_call", call };
  }
  yield { type: "finish", reason: finishReasonOf(finish, madeToolCalls) };
}

function parseChunk(data: string): ChatChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw providerError({ kind: "garbage", providerMessage: data.slice(0, 2000) });
  }
  // OpenRouter and others report a failure mid-stream as a chunk holding only an error.
  if (typeof json === "object" && json !== null && "error" in json && json.error) {
    throw providerError({ kind: "provider_failed", providerMessage: providerWords(data) });
  }
  const parsed = ChatChunk.safeParse(json);
  if (!parsed.success) throw providerError({ kind: "garbage", providerMessage: data.slice(0, 2000) });
  return parsed.data;
}
