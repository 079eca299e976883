import type { ChatMessage, ToolCall } from "../model/mod.ts";
import type { ConversationEvent, StoredEvent } from "../store/mod.ts";

type Summary = Extract<ConversationEvent, { type: "summary" }>;

/** What the model reads in place of a call's result when the call never finished (TRN-4). */
export const NOT_COMPLETED = "This call was not completed, and Link did not run it again. " +
  "It may or may not have taken effect; call it again if it is still needed.";

/** How the summary that stands for earlier events opens. */
export const SUMMARY_OPENING =
  "Summary of the conversation so far (the earlier messages are kept, not shown):";

/**
 * The messages for the next model call, built from a conversation's events. The latest summary
 * stands for every event up to its `through` (none is deleted, the model just reads the summary);
 * each tool call is followed by its result, a message that came while calls were out waiting
 * until they are answered, since providers take results right after their calls. A result
 * marked not_made, or a call with no result, tells the model the call was not completed. A turn
 * that ended in an error adds nothing: the model never said it. An answer that repeats what the
 * turn's replies already said is not said twice.
 */
export function modelMessages(
  events: readonly StoredEvent[],
  options: { system?: string } = {},
): ChatMessage[] {
  const out: ChatMessage[] = options.system === undefined
    ? []
    : [{ role: "system", content: options.system }];
  const summary = latestSummary(events);
  if (summary) out.push({ role: "user", content: `${SUMMARY_OPENING}\n\n${summary.event.text}` });
  const after = summary ? summary.event.through : 0;
  const waiting = new Set<string>();
  let deferred: ChatMessage[] = [];
  const said = new Map<string, string[]>();
  const closeCalls = () => {
    for (const id of waiting) out.push({ role: "tool", tool_call_id: id, content: NOT_COMPLETED });
    waiting.clear();
    out.push(...deferred);
    deferred = [];
  };
  for (const { n, event } of inTheOrderRead(events)) {
    if (n <= after) continue;
    switch (event.type) {
      case "message": {
        const content = event.from ? `(from ${event.from}) ${event.text}` : event.text;
        (waiting.size > 0 ? deferred : out).push({ role: "user", content });
        break;
      }
      case "assistant": {
        closeCalls();
        const calls: ToolCall[] = event.tool_calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        }));
        out.push(
          calls.length ? { role: "assistant", content: event.text || null, tool_calls: calls } : {
            role: "assistant",
            content: event.text,
          },
        );
        for (const c of calls) waiting.add(c.id);
        if (event.text !== "") said.set(event.turn, [...(said.get(event.turn) ?? []), event.text]);
        break;
      }
      case "tool_result": {
        // A result whose call is not here (summarised, or never made) has nothing to answer.
        if (!waiting.delete(event.call)) break;
        const content = event.not_made && event.content.trim() === "" ? NOT_COMPLETED : event.content;
        out.push({ role: "tool", tool_call_id: event.call, content });
        if (waiting.size === 0) closeCalls();
        break;
      }
      case "answer": {
        closeCalls();
        const before = said.get(event.turn) ?? [];
        const repeats = before.length > 0 &&
          (event.text === before.at(-1) || event.text === before.join("\n\n"));
        if (!repeats && event.text !== "") out.push({ role: "assistant", content: event.text });
        break;
      }
      default:
        break;
    }
  }
  closeCalls();
  return out;
}

/** The summary written last, if any. */
export function latestSummary(events: readonly StoredEvent[]): { n: number; event: Summary } | undefined {
  let found: { n: number; event: Summary } | undefined;
  for (const { n, event } of events) {
    if (event.type === "summary" && (found === undefined || n > found.n)) found = { n, event };
  }
  return found;
}

/**
 * The events in the order the model lived them: a reply right after the last event it had read
 * (`seen`), so a message that steered the turn while the reply was written reads as coming after
 * it, not before it (TRN-9). Every other event keeps its number's place.
 */
function inTheOrderRead(events: readonly StoredEvent[]): StoredEvent[] {
  const place = (e: StoredEvent) =>
    e.event.type === "assistant" && e.event.seen !== undefined && e.event.seen < e.n
      ? e.event.seen + 0.5
      : e.n;
  return [...events].sort((a, b) => place(a) - place(b) || a.n - b.n);
}
