import type { ConversationEvent, StoredEvent } from "../store/mod.ts";

/** A message event as read back. */
export type MessageEvent = Extract<ConversationEvent, { type: "message" }>;

/** A numbered message. */
export interface StoredMessage {
  n: number;
  event: MessageEvent;
}

/** Where a conversation stands, read from its events. */
export interface ConversationState {
  /** The highest event number; 0 for none. */
  last: number;
  /** The number of the last turn end (an answer or an error); 0 for none. */
  lastEnd: number;
  /**
   * Messages after the last turn end: the ones the open turn (or the next) answers. Every event
   * is appended on its number, so whoever writes a turn's end has read every message before it:
   * a message before an end is answered by that turn (TRN-8).
   */
  pending: StoredMessage[];
  /** A turn begun after the last end: a crashed one when nobody holds its lease (TRN-4). */
  openTurn?: { n: number; turn: string };
  /** The open turn's tool calls that have no result yet. */
  unansweredCalls: { id: string; name: string }[];
}

/** Reads where a conversation stands from its events, oldest first. */
export function conversationState(events: readonly StoredEvent[]): ConversationState {
  let lastEnd = 0;
  for (const e of events) if (e.event.type === "answer" || e.event.type === "error") lastEnd = e.n;
  const after = events.filter((e) => e.n > lastEnd);
  const pending = after.filter((e): e is StoredMessage => e.event.type === "message");
  const turnEvent = after.find((e) => e.event.type === "turn");
  const state: ConversationState = {
    last: events.at(-1)?.n ?? 0,
    lastEnd,
    pending,
    unansweredCalls: [],
  };
  if (turnEvent?.event.type !== "turn") return state;
  state.openTurn = { n: turnEvent.n, turn: turnEvent.event.turn };
  const answered = new Set<string>();
  for (const e of after) if (e.event.type === "tool_result") answered.add(e.event.call);
  for (const e of after) {
    if (e.event.type !== "assistant") continue;
    for (const call of e.event.tool_calls) {
      if (!answered.has(call.id)) state.unansweredCalls.push({ id: call.id, name: call.name });
    }
  }
  return state;
}
