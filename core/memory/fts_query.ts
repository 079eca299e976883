/** The most words of a query memory searches by. */
const QUERY_WORDS_MAX = 32;

/**
 * A query as an FTS5 match of its words, any of them, each quoted so nothing a person or a
 * model types is read as FTS5's own syntax (`NEAR`, `*`, `"`, columns). Undefined when it has no word.
 */
export function ftsQuery(query: string): string | undefined {
  const words = (query.normalize("NFKC").match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, QUERY_WORDS_MAX);
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w}"`).join(" OR ");
}
