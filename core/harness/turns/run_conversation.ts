import { logger } from "../../base/mod.ts";
import { conversationState } from "./conversation_state.ts";
import type { EventLog } from "./event_log.ts";
import type { LeaseKeeper } from "./lease_keeper.ts";
import { runTurn, type TurnEnd } from "./run_turn.ts";
import type { TurnAgent } from "./turn_agent.ts";
import { ParagraphSink, type TurnResult, type TurnSink } from "./turn_sink.ts";

const log = logger("harness");

/** A conversation whose lease this process took, and who waits for its answer. */
export interface ConversationRun {
  agent: TurnAgent;
  events: EventLog;
  keeper: LeaseKeeper;
  sink: TurnSink;
  /** The harness is stopping: the turn stops where it is and its lease is left lapsed. */
  stop: AbortSignal;
  cancel: AbortSignal;
  /** Takes the lease again (turn.take). */
  take(): Promise<LeaseKeeper | undefined>;
  /** The log holds every event through the message that started this run (see TurnRun.fresh). */
  fresh?: boolean;
}

/**
 * Runs a conversation's turns while this process holds its lease, then lets the lease go and
 * looks once more: a message that landed after the turn's last look, whose own request found the
 * lease held, is answered by taking the lease again, on the same request (TRN-10). An answer
 * nobody read to its end is kept for `/_link/recover` (TRN-5, LOC-5).
 */
export async function runConversation(run: ConversationRun): Promise<void> {
  const { agent, events } = run;
  const sink = new ParagraphSink(run.sink);
  let keeper: LeaseKeeper | undefined = run.keeper;
  let result: TurnResult | undefined;
  let why = "";
  let fresh = run.fresh === true;
  const kept: string[] = [];
  try {
    while (keeper) {
      const stop = AbortSignal.any([run.stop, keeper.lost]);
      let ended: TurnEnd;
      try {
        ended = await runTurn({ agent, events, sink, stop, cancel: run.cancel, fresh });
        fresh = false;
      } catch (err) {
        why = run.stop.aborted
          ? "the harness is stopping; the turn is finished when it starts again"
          : keeper.lost.aborted
          ? "the turn was taken over by another process"
          : `the harness failed: ${err instanceof Error ? err.message : err}`;
        // Left lapsed, not let go: the next taker finds the turn and finishes it (TRN-4).
        await keeper.abandon();
        throw err;
      }
      // Kept before the lease goes, so whoever sees the conversation idle also sees the answer.
      if (ended.kind !== "idle") {
        result = resultOf(ended);
        if (!sink.waiting || sink.acknowledges) kept.push(await keep(agent, events.conversation, ended));
      }
      await keeper.release();
      keeper = undefined;
      await events.refresh();
      if (conversationState(events.events).pending.length === 0) break;
      keeper = await run.take();
      if (keeper) log.info("Answering a message that came as the turn ended", { agent: agent.id });
    }
  } catch (err) {
    why ||= `the harness failed: ${err instanceof Error ? err.message : err}`;
    if (!run.stop.aborted) log.error("A turn stopped", { agent: agent.id, error: err });
    const message = `Your agent could not finish: ${why}`;
    sink.paragraph();
    sink.text(message, true);
    result = { stopReason: "end_turn", error: { code: "SERVICE_FAILED", message } };
  } finally {
    sink.end({ ...result ?? { stopReason: "end_turn" }, ...(sink.acknowledges ? { kept } : {}) });
  }
}

function resultOf(ended: Exclude<TurnEnd, { kind: "idle" }>): TurnResult {
  if (ended.kind === "cancelled") return { stopReason: "cancelled" };
  return ended.error ? { stopReason: "end_turn", error: ended.error } : { stopReason: "end_turn" };
}

async function keep(
  agent: TurnAgent,
  conversation: string,
  ended: Exclude<TurnEnd, { kind: "idle" }>,
): Promise<string> {
  const kept = await agent.kept.keep({
    conversation,
    answer: ended.said,
    requests: ended.messages.map((m) => m.event.request),
    error: ended.kind === "failed",
  }, agent.clock.now());
  return kept.id;
}
