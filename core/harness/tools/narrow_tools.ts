/**
 * A conversation's tools: the start's list kept to the names the conversation has, in the
 * start's order (TRN-12). No list means the conversation has them all.
 */
export function narrowTools<T extends { readonly name: string }>(
  tools: readonly T[],
  allowed: readonly string[] | undefined,
): T[] {
  if (allowed === undefined) return [...tools];
  const names = new Set(allowed);
  return tools.filter((t) => names.has(t.name));
}

/**
 * The names a conversation has after a later list is applied (TRN-12): the intersection, so
 * nothing widens a conversation again. No list on either side leaves the other as it is.
 */
export function narrowToolNames(
  current: readonly string[] | undefined,
  later: readonly string[] | undefined,
): string[] | undefined {
  if (later === undefined) return current === undefined ? undefined : [...current];
  if (current === undefined) return [...new Set(later)];
  const keep = new Set(later);
  return current.filter((name) => keep.has(name));
}
