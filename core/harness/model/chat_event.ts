import type { ToolCall } from "./messages.ts";
import type { TokenUsage } from "./usage.ts";
import type { WireUsage } from "./wire_schemas.ts";

/** Why the model stopped; providers' other reasons become "other". */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "other";

/**
 * What a streamed answer yields, in order: text and reasoning as they come, each tool call once
 * complete, the usage when the provider reports it, and `finish` last of all.
 */
export type ChatEvent =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; usage: TokenUsage }
  | { type: "finish"; reason: FinishReason };

/** A provider's finish reason in Link's words; a call made under "stop" (Ollama does) is "tool_calls". */
export function finishReasonOf(reason: string | null | undefined, madeToolCalls: boolean): FinishReason {
  if (madeToolCalls && (reason === "stop" || !reason)) return "tool_calls";
  switch (reason) {
    case "stop":
    case "length":
    case "tool_calls":
    case "content_filter":
      return reason;
    case "function_call":
      return "tool_calls";
    case null:
    case undefined:
      return "stop";
    default:
      return "other";
  }
}

/** A provider's usage in Link's words. */
export function usageOf(wire: WireUsage): TokenUsage {
  return {
    promptTokens: wire.prompt_tokens,
    completionTokens: wire.completion_tokens,
    cachedTokens: wire.prompt_tokens_details?.cached_tokens ?? wire.prompt_cache_hit_tokens ?? 0,
  };
}
