import { type Clock, LinkError } from "../../base/mod.ts";
import type { ConversationEvent, StoredEvent } from "../store/mod.ts";
import { charTokens, type TokenEstimate } from "./estimate.ts";
import { latestSummary } from "./model_messages.ts";
import { transcriptLines } from "./transcript.ts";

type Summary = Extract<ConversationEvent, { type: "summary" }>;

/** What the model is asked, before the summary so far and the part to add. */
export const SUMMARY_REQUEST = "Summarise this conversation for your own later use: you will see this " +
  "summary instead of the messages it covers. Keep what the owner asked and prefers, what was " +
  "decided and done (files, commands, results), facts learned, and what is still open. Write it " +
  "in the conversation's language, as a compact list; do not add anything that was not said.";

/** Options of compact. */
export interface CompactOptions {
  /** The last event the summary covers, from planCompaction. */
  through: number;
  /** Asks the model: the request's text in, the summary out. */
  summarise: (text: string) => Promise<string>;
  clock: Clock;
  /** The most one request to summarise may take; longer parts are summarised in turn. 24,000 by default. */
  maxInputTokens?: number;
  estimate?: TokenEstimate;
}

/**
 * Makes the summary event for events up to `through`: the latest earlier summary and the events
 * after it, as a transcript, summarised by the model. A transcript longer than one request takes
 * is summarised part by part, each part added to the summary so far. The caller appends the
 * event; none is deleted (the summary stands in for them in `modelMessages`).
 */
export async function compact(events: readonly StoredEvent[], options: CompactOptions): Promise<Summary> {
  const estimate = options.estimate ?? charTokens;
  const earlier = latestSummary(events.filter((e) => e.n <= options.through));
  const from = earlier?.event.through ?? 0;
  const covered = events.filter((e) => e.n > from && e.n <= options.through);
  let summary = earlier?.event.text ?? "";
  const max = options.maxInputTokens ?? 24_000;
  // Room for the summary so far, which grows as parts are added.
  const budget = max - estimate(SUMMARY_REQUEST) - Math.max(estimate(summary), Math.floor(max / 4)) - 20;
  for (const part of parts(transcriptLines(covered), Math.max(1000, budget), estimate)) {
    const text = await options.summarise(requestText(summary, part));
    if (text.trim() === "") {
      throw new LinkError(
        "PROVIDER_ERROR",
        "Cannot compact the conversation: the model answered with an empty summary",
      );
    }
    summary = text.trim();
  }
  if (summary === "") summary = "(Nothing was said before this point.)";
  return { type: "summary", through: options.through, text: summary, at: options.clock.now() };
}

function requestText(summary: string, part: string): string {
  const before = summary === "" ? "" : `The summary so far:\n\n${summary}\n\nWhat came after it:\n\n`;
  return `${SUMMARY_REQUEST}\n\n${before}${part}`;
}

/** Lines grouped into parts of at most `budget` tokens; a longer line is cut. */
function parts(lines: readonly string[], budget: number, estimate: TokenEstimate): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const whole of lines) {
    const line = estimate(whole) > budget ? `${whole.slice(0, budget * 3)} [... cut]` : whole;
    const cost = estimate(line) + 1;
    if (size + cost > budget && current.length > 0) {
      out.push(current.join("\n"));
      current = [];
      size = 0;
    }
    current.push(line);
    size += cost;
  }
  if (current.length > 0) out.push(current.join("\n"));
  return out;
}
