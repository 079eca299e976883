/**
 * Schemas of what OpenAI-compatible providers send back. Providers add fields, so every object
 * is loose; optional fields accept null, since several servers send null for "absent".
 */
import { z } from "zod";
import { lazySchema } from "../../base/mod.ts";

const Count = lazySchema(() => z.number().int().nonnegative());

/** Token counts as a provider reports them. */
export const WireUsage = lazySchema(() =>
  z.looseObject({
    prompt_tokens: Count,
    completion_tokens: Count,
    total_tokens: Count.nullish(),
    prompt_tokens_details: z.looseObject({ cached_tokens: Count.nullish() }).nullish(),
    /** DeepSeek's name for the cached part. */
    prompt_cache_hit_tokens: Count.nullish(),
  })
);
export type WireUsage = z.infer<typeof WireUsage>;

/** A piece of one tool call inside a streamed chunk. */
export const ToolCallDelta = lazySchema(() =>
  z.looseObject({
    index: z.number().int().nonnegative().nullish(),
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
  })
);
export type ToolCallDelta = z.infer<typeof ToolCallDelta>;

/** One `data:` payload of a streamed answer. */
export const ChatChunk = lazySchema(() =>
  z.looseObject({
    choices: z.array(z.looseObject({
      index: z.number().int().nullish(),
      delta: z.looseObject({
        content: z.string().nullish(),
        /** DeepSeek's reasoner, and OpenRouter's `reasoning`. */
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z.array(ToolCallDelta).nullish(),
      }).nullish(),
      finish_reason: z.string().nullish(),
    })).nullish(),
    usage: WireUsage.nullish(),
  })
);
export type ChatChunk = z.infer<typeof ChatChunk>;

/** A whole answer, when the provider does not stream. */
export const ChatCompletion = lazySchema(() =>
  z.looseObject({
    choices: z.array(z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        reasoning_content: z.string().nullish(),
        reasoning: z.string().nullish(),
        tool_calls: z.array(z.looseObject({
          id: z.string().nullish(),
          function: z.looseObject({
            name: z.string(),
            arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
          }),
        })).nullish(),
      }),
      finish_reason: z.string().nullish(),
    })).min(1),
    usage: WireUsage.nullish(),
  })
);
export type ChatCompletion = z.infer<typeof ChatCompletion>;

/** A provider's error body: `{"error": {"message": …}}`, or `{"error": "…"}` from some servers. */
export const ProviderErrorBody = lazySchema(() =>
  z.looseObject({
    error: z.union([
      z.string(),
      z.looseObject({
        message: z.string().nullish(),
        type: z.string().nullish(),
        code: z.union([z.string(), z.number()]).nullish(),
      }),
    ]),
  })
);
export type ProviderErrorBody = z.infer<typeof ProviderErrorBody>;

/** GET /models: the models a server offers. */
export const ModelList = lazySchema(() =>
  z.looseObject({
    data: z.array(z.looseObject({ id: z.string() })),
  })
);
export type ModelList = z.infer<typeof ModelList>;
