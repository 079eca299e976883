import { logger } from "../../base/mod.ts";
import type { ToolCall } from "../model/mod.ts";
import { conversationState } from "./conversation_state.ts";
import type { EventLog } from "./event_log.ts";
import type { ToolOutcome, TurnAgent } from "./turn_agent.ts";
import type { TurnSink } from "./turn_sink.ts";

const log = logger("harness");

/** What a call that never finished is answered with when its turn is finished by the next taker (TRN-4). */
export const NOT_MADE =
  "This call was not completed: the harness stopped while it ran, and Link did not run it again. " +
  "It may or may not have taken effect; call it again if it is still needed.";

/** What a call the person cancelled before it ran is answered with. */
export const CANCELLED = "This call was not made: the person cancelled the turn.";

/**
 * Runs the model's tool calls one after another, each result written once as its event. A call
 * is never run again by Link: its result is written after it ran, and a crash in between is
 * answered as not made by the next taker (TRN-4).
 */
export async function runTools(
  agent: TurnAgent,
  events: EventLog,
  turn: string,
  calls: ToolCall[],
  options: { sink: TurnSink; stop: AbortSignal; cancel: AbortSignal },
): Promise<void> {
  const hops = turnHops(events);
  for (const call of calls) {
    options.stop.throwIfAborted();
    options.sink.toolCall({ id: call.id, name: call.function.name, arguments: call.function.arguments });
    let outcome: ToolOutcome;
    if (options.cancel.aborted) outcome = { content: CANCELLED, ok: false };
    else {
      try {
        outcome = await agent.tools.run(call, {
          conversation: events.conversation,
          hops,
          signal: options.stop,
        });
      } catch (err) {
        options.stop.throwIfAborted();
        log.warn("A tool failed", { agent: agent.id, tool: call.function.name, error: err });
        outcome = {
          content: `The tool failed: ${err instanceof Error ? err.message : String(err)}`,
          ok: false,
        };
      }
    }
    options.stop.throwIfAborted();
    await events.append({
      type: "tool_result",
      turn,
      call: call.id,
      content: outcome.content,
      not_made: options.cancel.aborted && outcome.content === CANCELLED,
      at: agent.clock.now(),
    });
    options.sink.toolResult(call.id, outcome.ok);
  }
}

/** The hops of the messages the open turn answers: the most of them, 0 for the owner's own (SCH-9). */
function turnHops(events: EventLog): number {
  let hops = 0;
  for (const m of conversationState(events.events).pending) hops = Math.max(hops, m.event.hops ?? 0);
  return hops;
}

/** Answers a crashed turn's unanswered calls as not made, so the model decides whether to call again. */
export async function answerNotMade(
  agent: TurnAgent,
  events: EventLog,
  turn: string,
  calls: { id: string; name: string }[],
): Promise<void> {
  for (const call of calls) {
    await events.append({
      type: "tool_result",
      turn,
      call: call.id,
      content: NOT_MADE,
      not_made: true,
      at: agent.clock.now(),
    });
    log.info("Answered a call of a crashed turn as not made", { agent: agent.id, tool: call.name });
  }
}
