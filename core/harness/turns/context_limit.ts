import type { TurnAgent } from "./turn_agent.ts";

/** Link's guess of a model's context when the spec gives none (`[model] context`). */
export const DEFAULT_CONTEXT_TOKENS = 64_000;

/**
 * A rough token count: four ASCII characters a token, every other character one. It errs high
 * for text outside ASCII, as tokenizers do.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/**
 * How many tokens one message may take: the model's context less the system prompt and room for
 * the answer (a quarter of the context, at most 4096 tokens).
 */
export function messageLimit(agent: TurnAgent): number {
  const room = Math.min(4096, Math.floor(agent.contextTokens / 4));
  return Math.max(0, agent.contextTokens - estimateTokens(agent.system) - room);
}
