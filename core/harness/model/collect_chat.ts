import type { ChatEvent, FinishReason } from "./chat_event.ts";
import type { AssistantMessage, ToolCall } from "./messages.ts";
import type { TokenUsage } from "./usage.ts";

/** A whole answer, gathered from its events. */
export interface ChatAnswer {
  /** The answer as the next request's history holds it. */
  message: AssistantMessage;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** Undefined when the provider reported none. */
  usage: TokenUsage | undefined;
  finishReason: FinishReason;
}

/**
 * Reads a `streamChat` answer to its end, passing each event to `onEvent` as it comes (to stream
 * text on to a chat), and returns the whole answer.
 */
export async function collectChat(
  events: AsyncIterable<ChatEvent>,
  options: { onEvent?: (event: ChatEvent) => void | Promise<void> } = {},
): Promise<ChatAnswer> {
  let text = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  let usage: TokenUsage | undefined;
  let finishReason: FinishReason = "stop";
  for await (const event of events) {
    await options.onEvent?.(event);
    if (event.type === "text") text += event.text;
    else if (event.type === "reasoning") reasoning += event.text;
    else if (event.type === "tool_call") toolCalls.push(event.call);
    else if (event.type === "usage") usage = event.usage;
    else finishReason = event.reason;
  }
  const message: AssistantMessage = toolCalls.length
    ? { role: "assistant", content: text || null, tool_calls: toolCalls }
    : { role: "assistant", content: text };
  return { message, text, reasoning, toolCalls, usage, finishReason };
}
