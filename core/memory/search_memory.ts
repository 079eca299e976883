import { isLinkError, LinkError, logger } from "../base/mod.ts";
import type { Embedder } from "./embedder.ts";
import type { MemorySearch } from "./memory_hit.ts";
import type { MemoryIndex } from "./memory_index.ts";

const log = logger("memory");

/** The most hits one search gives. */
export const SEARCH_LIMIT_MAX = 50;
/** The longest query memory takes. */
export const QUERY_MAX_CHARS = 2_000;

/** The most pieces one search embeds before it answers. */
export const EMBED_PER_SEARCH = 256;

/** Why a search without embeddings is by words alone. */
export const NO_EMBEDDINGS_NOTE =
  "Searched by words alone: no embeddings model is set for this agent ([memory] embeddings in its spec)";

/**
 * Searches an agent's memory: its index brought up to date with its files first, then ranked by
 * words and, with an embedder, by meaning too. A provider that fails (429, garbage, down) makes
 * the search one by words, saying so: nothing it half answered is kept. A conversation named in
 * `exclude` (the one asking, whose words the model has already) gives no hit.
 */
export async function searchMemory(
  index: MemoryIndex,
  query: string,
  options: { limit?: number; embedder?: Embedder; signal?: AbortSignal; asleep?: string; exclude?: string } =
    {},
): Promise<MemorySearch> {
  const limit = Math.min(Math.max(options.limit ?? 8, 1), SEARCH_LIMIT_MAX);
  await index.refresh();
  const embedder = options.embedder;
  const exclude = options.exclude;
  if (!embedder) {
    return {
      hits: index.search(query, { limit, exclude }),
      by: "words",
      note: options.asleep ?? NO_EMBEDDINGS_NOTE,
    };
  }
  if (!index.vec.loaded) {
    return {
      hits: index.search(query, { limit, exclude }),
      by: "words",
      note: `Searched by words alone: ${index.vec.why}`,
    };
  }
  try {
    // A long history is embedded a share at each search (and at each session's start), so no
    // search waits on all of it; what has no vector yet is still found by its words.
    await index.embedPending(embedder, { max: EMBED_PER_SEARCH, signal: options.signal });
    const [values] = await embedder.embed([query], options.signal);
    const hits = index.search(query, { limit, exclude, vector: { model: embedder.model, values: values! } });
    return { hits, by: "words and meaning" };
  } catch (err) {
    if (!isLinkError(err)) throw err;
    log.warn("Memory searched by words alone: its embeddings failed", { code: err.code, error: err.message });
    return {
      hits: index.search(query, { limit, exclude }),
      by: "words",
      note: `Searched by words alone: ${err.message}`,
    };
  }
}

/** A query memory takes: some words, not too long. */
export function checkQuery(query: string): void {
  if (query.trim() === "" || query.length > QUERY_MAX_CHARS) {
    throw new LinkError(
      "USAGE",
      `Cannot search memory: the query must be 1 to ${QUERY_MAX_CHARS} characters`,
      {
        hint: 'Give some words to look for, such as `lnk agent memory search "where Bo lives"`',
      },
    );
  }
}
