import { type FinishReason, streamChat, type TokenUsage, type ToolCall } from "../model/mod.ts";
import type { EventLog } from "./event_log.ts";
import { prepareMessages } from "./prepare_messages.ts";
import type { TurnAgent } from "./turn_agent.ts";
import type { ParagraphSink } from "./turn_sink.ts";

/** What one call to the model gave. */
export interface ModelReply {
  text: string;
  calls: ToolCall[];
  usage?: TokenUsage;
  finish?: FinishReason;
}

/**
 * Calls the agent's model once on the conversation as read (compacted first when it nears the
 * context) and streams its text to the sink as it is written; throws the model layer's
 * PROVIDER_ERROR when the provider fails (MDL-2), or the signal's reason.
 */
export async function modelStep(
  agent: TurnAgent,
  events: EventLog,
  options: { sink: ParagraphSink; signal: AbortSignal },
): Promise<ModelReply> {
  const tools = await agent.tools.definitions(events.conversation);
  const messages = await prepareMessages(agent, events, tools, options.signal);
  const reply: ModelReply = { text: "", calls: [] };
  const stream = streamChat(
    { model: agent.model.model, messages, tools: tools.length ? tools : undefined },
    {
      baseUrl: agent.model.baseUrl,
      key: agent.model.key,
      headers: agent.model.headers,
      timeoutMs: agent.model.timeoutMs,
      stallMs: agent.model.stallMs,
      clock: agent.clock,
      signal: options.signal,
    },
  );
  options.sink.paragraph();
  for await (const event of stream) {
    switch (event.type) {
      case "text":
        reply.text += event.text;
        options.sink.text(event.text);
        break;
      case "tool_call":
        reply.calls.push(event.call);
        break;
      case "usage":
        reply.usage = event.usage;
        break;
      case "finish":
        reply.finish = event.reason;
        break;
      default:
        break;
    }
  }
  return reply;
}
