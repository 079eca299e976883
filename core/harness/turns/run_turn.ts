import { isLinkError, logger } from "../../base/mod.ts";
import type { StoredEvent } from "../store/mod.ts";
import { conversationState, type StoredMessage } from "./conversation_state.ts";
import type { EventLog } from "./event_log.ts";
import { type ModelReply, modelStep } from "./model_step.ts";
import { answerNotMade, runTools } from "./tool_step.ts";
import type { TurnAgent } from "./turn_agent.ts";
import type { ParagraphSink } from "./turn_sink.ts";

const log = logger("harness");

/** One turn to run, under a lease the caller holds. */
export interface TurnRun {
  agent: TurnAgent;
  events: EventLog;
  sink: ParagraphSink;
  /** Stops the turn where it is, writing nothing more: the lease was lost, or the harness stops. */
  stop: AbortSignal;
  /** The caller cancelled (session/cancel): the turn ends with what it has. */
  cancel: AbortSignal;
  /**
   * The log was read through the message this process just wrote on its number, so it holds
   * every event before it (writers never skip a number): the turn need not read it again first.
   */
  fresh?: boolean;
}

/** How a turn ended: nothing to do, or an end event written at `n`. */
export type TurnEnd =
  | { kind: "idle" }
  | {
    kind: "answered" | "failed" | "cancelled";
    n: number;
    turn: string;
    /** Everything the turn said to the chat, as its caller read it. */
    said: string;
    /** The messages it answered. */
    messages: StoredMessage[];
    error?: { code: string; message: string; hint?: string };
  };

/**
 * Runs one turn of a conversation: finishes a crashed turn first (TRN-4), else begins one for the
 * messages waiting. Before each model call it reads on, so a message that arrived mid-turn joins
 * it (TRN-9); its end is written on its number, so a message landing at the last look is taken
 * in rather than left behind (TRN-8, TRN-10).
 */
export async function runTurn(run: TurnRun): Promise<TurnEnd> {
  const { agent, events } = run;
  if (!run.fresh) await events.refresh();
  // A message just written where no turn is open: the model's first call goes out while the
  // turn's own event is written, which it does not need (PRC-13); nothing of the turn is written
  // or said before that event is.
  let opening = run.fresh ? openTurn(run) : undefined;
  let turn = opening?.turn ?? await beginTurn(run);
  if (!turn) return { kind: "idle" };
  /** The turn's event written; false when another took its number first and the turn began anew. */
  const opened = async (): Promise<boolean> => {
    if (!opening) return true;
    const n = await opening.written;
    opening = undefined;
    if (n !== undefined) return true;
    turn = await beginTurn(run);
    return false;
  };
  const said: string[] = [];
  for (let step = 0;; step++) {
    run.stop.throwIfAborted();
    if (run.cancel.aborted) {
      await opened();
      return turn ? await end(run, turn, said, "cancelled") : { kind: "idle" };
    }
    if (!turn) return { kind: "idle" };
    if (step > 0) await events.refresh();
    const seen = events.last;
    let reply: ModelReply;
    try {
      reply = await modelStep(agent, events, {
        sink: run.sink,
        signal: AbortSignal.any([run.stop, run.cancel]),
        gate: opening?.gate,
      });
      opening = undefined;
    } catch (err) {
      // Another wrote on the turn's number first: it began anew, and the model is called again.
      if (!(await opened())) {
        step = -1;
        continue;
      }
      run.stop.throwIfAborted();
      if (run.cancel.aborted) return await end(run, turn, said, "cancelled");
      return await failed(run, turn, said, err);
    }
    if (reply.calls.length) {
      await events.append({
        type: "assistant",
        turn,
        text: reply.text,
        tool_calls: reply.calls.map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
        })),
        ...(reply.usage ? { usage: usageOf(reply) } : {}),
        seen,
        at: agent.clock.now(),
      });
      said.push(reply.text);
      await runTools(agent, events, turn, reply.calls, run);
      continue;
    }
    const ended = await answer(run, turn, said, reply, seen);
    if (ended) return ended;
    // A message came in after the model was called: what it said stays, and it is called again.
    await events.append({
      type: "assistant",
      turn,
      text: reply.text,
      tool_calls: [],
      seen,
      at: agent.clock.now(),
    });
    said.push(reply.text);
    log.info("A message joined the turn at its last look", {
      agent: agent.id,
      conversation: events.conversation,
    });
  }
}

/**
 * A new turn on a conversation waiting with nothing open, its event being written; undefined
 * when there is a crashed turn to finish first, or nothing to answer.
 */
function openTurn(
  run: TurnRun,
): { turn: string; written: Promise<number | undefined>; gate: Promise<number> } | undefined {
  const state = conversationState(run.events.events);
  if (state.openTurn || !state.pending.length) return undefined;
  const turn = crypto.randomUUID();
  const written = run.events.tryAppend({
    type: "turn",
    turn,
    answers: state.pending.map((m) => m.n),
    at: run.agent.clock.now(),
  });
  const gate = written.then((n) => n ?? Promise.reject(new Error("another event took the turn's number")));
  written.catch(() => {});
  gate.catch(() => {});
  return { turn, written, gate };
}

/** The open turn's ID after answering its unanswered calls, a new turn's, or undefined when idle. */
async function beginTurn(run: TurnRun): Promise<string | undefined> {
  const { agent, events } = run;
  for (;;) {
    const state = conversationState(events.events);
    if (state.openTurn) {
      log.info("Finishing a crashed turn", { agent: agent.id, conversation: events.conversation });
      await answerNotMade(agent, events, state.openTurn.turn, state.unansweredCalls);
      return state.openTurn.turn;
    }
    if (!state.pending.length) return undefined;
    const turn = crypto.randomUUID();
    const n = await events.tryAppend({
      type: "turn",
      turn,
      answers: state.pending.map((m) => m.n),
      at: agent.clock.now(),
    });
    if (n !== undefined) return turn;
  }
}

/** Writes the answer unless a message came after `seen`; undefined when one did. */
async function answer(
  run: TurnRun,
  turn: string,
  said: string[],
  reply: ModelReply,
  seen: number,
): Promise<TurnEnd | undefined> {
  const { events } = run;
  for (;;) {
    if (messagesAfter(events.events, seen)) return undefined;
    const messages = conversationState(events.events).pending;
    const n = await events.tryAppend({
      type: "answer",
      turn,
      text: reply.text,
      answers: messages.map((m) => m.n),
      at: run.agent.clock.now(),
    });
    if (n !== undefined) {
      return { kind: "answered", n, turn, said: joinSaid([...said, reply.text]), messages };
    }
  }
}

async function end(run: TurnRun, turn: string, said: string[], kind: "cancelled"): Promise<TurnEnd> {
  const { events } = run;
  for (;;) {
    const messages = conversationState(events.events).pending;
    const text = joinSaid(said);
    const n = await events.tryAppend({
      type: "answer",
      turn,
      text,
      answers: messages.map((m) => m.n),
      at: run.agent.clock.now(),
    });
    if (n !== undefined) return { kind, n, turn, said: text, messages };
  }
}

async function failed(run: TurnRun, turn: string, said: string[], err: unknown): Promise<TurnEnd> {
  const { agent, events } = run;
  const error = isLinkError(err, "PROVIDER_ERROR")
    ? { code: err.code, message: err.message, hint: err.hint }
    : {
      code: "INTERNAL",
      message: `Your agent could not answer: the harness failed: ${err instanceof Error ? err.message : err}`,
      hint: "Run `lnk agent logs` to see what the harness said",
    };
  if (error.code !== "PROVIDER_ERROR") {
    log.error("A turn failed", { agent: agent.id, conversation: events.conversation, error: err });
  }
  run.sink.paragraph();
  run.sink.text(error.message, true);
  for (;;) {
    const messages = conversationState(events.events).pending;
    const n = await events.tryAppend({ type: "error", turn, message: error.message, at: agent.clock.now() });
    if (n !== undefined) {
      return { kind: "failed", n, turn, said: joinSaid([...said, error.message]), messages, error };
    }
  }
}

function messagesAfter(events: readonly StoredEvent[], seen: number): boolean {
  return events.some((e) => e.n > seen && e.event.type === "message");
}

function joinSaid(parts: string[]): string {
  return parts.filter((p) => p !== "").join("\n\n");
}

function usageOf(reply: ModelReply): { input: number; output: number } {
  return { input: reply.usage?.promptTokens ?? 0, output: reply.usage?.completionTokens ?? 0 };
}
