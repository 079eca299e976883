import type { StoredEvent } from "../store/mod.ts";
import { charTokens, messagesTokens, PER_MESSAGE, type TokenEstimate } from "./estimate.ts";
import { latestSummary, modelMessages } from "./model_messages.ts";

/** Options of planCompaction. */
export interface PlanCompactionOptions {
  /** The model's context, in tokens. */
  contextTokens: number;
  estimate?: TokenEstimate;
  /** What every call sends besides the events: the system prompt and the tool list. */
  fixedTokens?: number;
  /** The share of the context past which to compact; 0.75 by default, leaving room for the answer. */
  threshold?: number;
  /** About how much of the most recent conversation stays as it is; a quarter of the context by default. */
  keepTokens?: number;
}

/** Whether to compact now, and through which event. */
export type CompactionPlan =
  | { compact: false; tokens: number; limit: number }
  | { compact: true; tokens: number; limit: number; through: number };

/**
 * Decides whether the next model call nears the model's context and, if so, through which event
 * to summarise: the earliest point after which about `keepTokens` of recent events remain, taken
 * only where no tool call is waiting for its result, so calls and results are never split. When
 * the recent events alone are larger, as much as can be summarised is. Nothing to summarise
 * beyond the last summary means no compaction.
 */
export function planCompaction(
  events: readonly StoredEvent[],
  options: PlanCompactionOptions,
): CompactionPlan {
  const estimate = options.estimate ?? charTokens;
  const limit = Math.floor(options.contextTokens * (options.threshold ?? 0.75));
  const tokens = (options.fixedTokens ?? 0) + messagesTokens(modelMessages(events), estimate);
  if (tokens <= limit) return { compact: false, tokens, limit };
  const keep = options.keepTokens ?? Math.floor(options.contextTokens / 4);
  const after = latestSummary(events)?.event.through ?? 0;
  const boundaries = safeBoundaries(events).filter((n) => n > after);
  if (boundaries.length === 0) return { compact: false, tokens, limit };
  const tails = tailTokens(events, estimate);
  const fits = (b: number) => (tails.get(b) ?? 0) <= keep;
  // Best before a message, so the kept part starts with what someone said; else inside a turn.
  const beforeMessage = new Set(
    events.flatMap((e, i) => (i > 0 && e.event.type === "message" ? [events[i - 1]!.n] : [])),
  );
  const through = boundaries.find((b) => beforeMessage.has(b) && fits(b)) ?? boundaries.find(fits) ??
    boundaries.at(-1)!;
  return { compact: true, tokens, limit, through };
}

/** Event numbers after which no tool call waits for its result. */
function safeBoundaries(events: readonly StoredEvent[]): number[] {
  const waiting = new Set<string>();
  const out: number[] = [];
  for (const { n, event } of events) {
    if (event.type === "assistant") { for (const c of event.tool_calls) waiting.add(c.id); }
    if (event.type === "tool_result") waiting.delete(event.call);
    if (event.type !== "summary" && waiting.size === 0) out.push(n);
  }
  // The last event is no boundary: summarising everything would leave the model nothing to answer.
  const last = events.at(-1)?.n;
  return out.filter((n) => n !== last);
}

/** For each event number, about what the events after it take of the context. */
function tailTokens(events: readonly StoredEvent[], estimate: TokenEstimate): Map<number, number> {
  const tails = new Map<number, number>();
  let sum = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    tails.set(events[i]!.n, sum);
    sum += eventTokens(events[i]!.event, estimate);
  }
  return tails;
}

function eventTokens(event: StoredEvent["event"], estimate: TokenEstimate): number {
  switch (event.type) {
    case "message":
      return PER_MESSAGE + estimate(event.text) + (event.from ? estimate(event.from) + 2 : 0);
    case "assistant":
      return PER_MESSAGE + estimate(event.text) +
        event.tool_calls.reduce((n, c) => n + estimate(c.name + c.arguments), 0);
    case "tool_result":
      return PER_MESSAGE + estimate(event.content);
    case "answer":
      return PER_MESSAGE + estimate(event.text);
    default:
      return 0;
  }
}
