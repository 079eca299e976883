import {
  type ChatEvent,
  type FinishReason,
  streamChat,
  type TokenUsage,
  type ToolCall,
} from "../model/mod.ts";
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

/** What one model call is made with besides the agent and its conversation. */
export interface ModelStepOptions {
  sink: ParagraphSink;
  signal: AbortSignal;
  /**
   * Awaited once the request has gone out, before its answer is read: what the call may go out
   * before but not be answered before (a new turn's own event, written meanwhile: PRC-13). When it
   * rejects, the call is dropped unread and its reason thrown.
   */
  gate?: Promise<unknown>;
}

/**
 * Calls the agent's model once on the conversation as read (compacted first when it nears the
 * context) and streams its text to the sink as it is written; throws the model layer's
 * PROVIDER_ERROR when the provider fails (MDL-2), or the signal's reason.
 */
export async function modelStep(
  agent: TurnAgent,
  events: EventLog,
  options: ModelStepOptions,
): Promise<ModelReply> {
  const tools = await agent.tools.definitions(events.conversation);
  const messages = await prepareMessages(agent, events, tools, options);
  const reply: ModelReply = { text: "", calls: [] };
  const dropped = new AbortController();
  const stream = streamChat(
    { model: agent.model.model, messages, tools: tools.length ? tools : undefined },
    {
      baseUrl: agent.model.baseUrl,
      key: agent.model.key,
      headers: agent.model.headers,
      timeoutMs: agent.model.timeoutMs,
      stallMs: agent.model.stallMs,
      clock: agent.clock,
      signal: options.gate ? AbortSignal.any([options.signal, dropped.signal]) : options.signal,
    },
  );
  // The request goes out here; its answer is read once the gate lets it.
  const first = stream.next();
  if (options.gate) {
    first.catch(() => {});
    try {
      await options.gate;
    } catch (err) {
      dropped.abort(err);
      await first.catch(() => {});
      throw err;
    }
  }
  options.sink.paragraph();
  let read = false;
  try {
    for (let next = await first; !next.done; next = await stream.next()) {
      take(reply, next.value, options.sink);
    }
    read = true;
  } finally {
    // Stopped midway: the call ends with it.
    if (!read) await stream.return(undefined).catch(() => {});
  }
  return reply;
}

function take(reply: ModelReply, event: ChatEvent, sink: ParagraphSink): void {
  switch (event.type) {
    case "text":
      reply.text += event.text;
      sink.text(event.text);
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
