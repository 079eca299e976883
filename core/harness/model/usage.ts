/** A model's price in US dollars per million tokens, in (prompt) and out (completion). */
export interface ModelPrice {
  inPerMillion: number;
  outPerMillion: number;
}

/** Tokens one call (or a sum of calls) used. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the provider served from its cache (a part of promptTokens). */
  cachedTokens: number;
}

/** No tokens yet: the start of a sum. */
export const NO_USAGE: TokenUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, cachedTokens: 0 });

/** Adds two usages, for a turn's or a conversation's total. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
  };
}

/**
 * What a usage costs in US dollars at a price; undefined when the price is not known. Cached
 * prompt tokens are charged at the full price in, so the figure never understates the bill.
 */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const microDollars = usage.promptTokens * price.inPerMillion + usage.completionTokens * price.outPerMillion;
  // Rounded to a billionth of a dollar, so sums of 0.1-dollar prices do not print float noise.
  return Math.round(microDollars * 1000) / 1_000_000_000;
}
