import { type ChatEvent, finishReasonOf, usageOf } from "./chat_event.ts";
import type { ToolCall } from "./messages.ts";
import { providerError, providerWords } from "./provider_error.ts";
import type { TimedBody } from "./timed_body.ts";
import { ChatCompletion } from "./wire_schemas.ts";

/** The largest non-streamed answer read, in characters. */
const MAX_COMPLETION = 16 * 1024 * 1024;

/** The events of an answer that came whole, as one JSON body: the same events a stream gives. */
export async function* completionEvents(body: TimedBody): AsyncGenerator<ChatEvent, void, undefined> {
  const text = await body.text(MAX_COMPLETION);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw providerError({ kind: "garbage", providerMessage: text.slice(0, 2000) });
  }
  if (typeof json === "object" && json !== null && "error" in json && json.error) {
    throw providerError({ kind: "provider_failed", providerMessage: providerWords(text) });
  }
  const parsed = ChatCompletion.safeParse(json);
  if (!parsed.success) throw providerError({ kind: "garbage", providerMessage: text.slice(0, 2000) });
  const choice = parsed.data.choices[0]!;
  const message = choice.message;
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) yield { type: "reasoning", text: reasoning };
  if (message.content) yield { type: "text", text: message.content };
  const calls: ToolCall[] = (message.tool_calls ?? []).map((call, n) => {
    const args = call.function.arguments;
    const argsText = typeof args === "string" ? args : args ? JSON.stringify(args) : "";
    return {
      id: call.id ?? `call_${n}`,
      type: "function",
      function: { name: call.function.name, arguments: argsText.trim() === "" ? "{}" : argsText },
    };
  });
  for (const call of calls) yield { type: "tool_call", call };
  if (parsed.data.usage) yield { type: "usage", usage: usageOf(parsed.data.usage) };
  yield { type: "finish", reason: finishReasonOf(choice.finish_reason, calls.length > 0) };
}
