import type { StoredEvent } from "../store/mod.ts";

/** The most of one tool call's arguments or result a transcript shows. */
const CLIP = 4000;

/**
 * Events as lines of plain text for the model to summarise: who said what, each tool call and
 * its result (long ones clipped), and how turns ended. The turn's bookkeeping is left out.
 */
export function transcriptLines(events: readonly StoredEvent[]): string[] {
  const lines: string[] = [];
  const names = new Map<string, string>();
  const said = new Map<string, string[]>();
  for (const { event } of events) {
    switch (event.type) {
      case "message":
        lines.push(event.from ? `User (from ${event.from}): ${event.text}` : `User: ${event.text}`);
        break;
      case "assistant":
        if (event.text !== "") {
          lines.push(`Assistant: ${event.text}`);
          said.set(event.turn, [...(said.get(event.turn) ?? []), event.text]);
        }
        for (const c of event.tool_calls) {
          names.set(c.id, c.name);
          lines.push(`Assistant called ${c.name} with ${clip(c.arguments)}`);
        }
        break;
      case "tool_result": {
        const what = event.not_made ? "was not completed" : `answered: ${clip(event.content)}`;
        lines.push(`Tool ${names.get(event.call) ?? event.call} ${what}`);
        break;
      }
      case "answer": {
        const before = said.get(event.turn) ?? [];
        const repeats = before.length > 0 &&
          (event.text === before.at(-1) || event.text === before.join("\n\n"));
        if (!repeats && event.text !== "") lines.push(`Assistant: ${event.text}`);
        break;
      }
      case "error":
        lines.push(`(The turn ended with an error: ${event.message})`);
        break;
      default:
        break;
    }
  }
  return lines;
}

function clip(text: string): string {
  return text.length <= CLIP
    ? text
    : `${text.slice(0, CLIP)} [... ${text.length - CLIP} characters left out]`;
}
