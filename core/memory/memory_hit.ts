import type { MemoryOrigin } from "./memory_source.ts";

/** One thing memory found, with where it came from and what found it. */
export interface MemoryHit {
  readonly origin: MemoryOrigin;
  readonly text: string;
  /** The blended score: higher is better. */
  readonly score: number;
  /** Whether its words matched, its meaning was near, or both. */
  readonly by: readonly ("words" | "meaning")[];
}

/** What a search found and how it searched. */
export interface MemorySearch {
  readonly hits: readonly MemoryHit[];
  /** "words" alone (no embeddings, or they failed), or "words and meaning". */
  readonly by: "words" | "words and meaning";
  /** Why it searched by words alone, when it did. */
  readonly note?: string;
}

/** Where a hit came from, as a person or a model reads it: `note people, line 3` or `conversation link:main, event 7`. */
export function originText(origin: MemoryOrigin): string {
  return origin.kind === "note"
    ? `note "${origin.note}", line ${origin.line}`
    : `conversation "${origin.conversation}", event ${origin.event}`;
}
