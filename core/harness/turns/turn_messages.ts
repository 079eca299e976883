import type { ChatMessage, ToolCall } from "../model/mod.ts";
import type { StoredEvent } from "../store/mod.ts";

/**
 * The model's messages from a conversation's events: the system prompt, then each message,
 * assistant reply, tool result and answer in order. A message that arrived while tool calls
 * were out waits until their results, since a provider takes the results right after the calls.
 * A turn that ended in an error adds nothing: the model never said it.
 */
export function turnMessages(system: string, events: readonly StoredEvent[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: "system", content: system }];
  const waiting = new Set<string>();
  let deferred: ChatMessage[] = [];
  const flush = () => {
    if (waiting.size > 0) return;
    out.push(...deferred);
    deferred = [];
  };
  for (const { event } of events) {
    switch (event.type) {
      case "message": {
        const content = event.from ? `(from ${event.from}) ${event.text}` : event.text;
        (waiting.size > 0 ? deferred : out).push({ role: "user", content });
        break;
      }
      case "assistant": {
        const calls: ToolCall[] = event.tool_calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        }));
        out.push(
          calls.length
            ? { role: "assistant", content: event.text || null, tool_calls: calls }
            : { role: "assistant", content: event.text },
        );
        for (const c of calls) waiting.add(c.id);
        break;
      }
      case "tool_result":
        if (!waiting.delete(event.call)) break;
        out.push({ role: "tool", tool_call_id: event.call, content: event.content });
        flush();
        break;
      case "answer":
        out.push({ role: "assistant", content: event.text });
        break;
      default:
        break;
    }
  }
  waiting.clear();
  flush();
  return out;
}
