/** Where a piece of memory came from: a note's line, or a conversation's event. */
export type MemoryOrigin =
  | { readonly kind: "note"; readonly note: string; readonly line: number }
  | { readonly kind: "chat"; readonly conversation: string; readonly event: number };

/** One piece of text to index, with where it came from. */
export interface MemoryChunk {
  readonly origin: MemoryOrigin;
  readonly text: string;
}

/** One file the index was made from, as it stood when read. */
export interface MemoryFile {
  /** Its path under the agent's `Agent/` folder: `memory/<note>.md` or `chats/<folder>/events/<n>.json`. */
  readonly path: string;
  readonly mtime: number;
  readonly size: number;
  /** Its text when it was read with the listing (an event of the SQLite store). */
  readonly text?: string;
}

/** The largest file memory reads: a larger one is left out, said in the log (the harness writes them). */
export const MEMORY_FILE_MAX_BYTES = 1024 * 1024;
/** The most files memory reads of one agent. */
export const MEMORY_FILES_MAX = 50_000;
/** The longest piece of text one chunk holds. */
export const CHUNK_MAX_CHARS = 2_000;
