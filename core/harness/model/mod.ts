/**
 * Link Harness's model layer: the table of providers and their one default price, picking an
 * agent's model (local server, key, default), and calling it with the OpenAI-compatible chat
 * completions API, streamed, with tool calls, usage and cost, and errors a person can read.
 * @module
 */
/** Messages, tools and requests in the chat completions format, and the request's fixed bytes (PRN-2). */
export {
  type AssistantMessage,
  chatBody,
  type ChatMessage,
  type ChatRequest,
  type ContentPart,
  type JsonValue,
  type SystemMessage,
  type ToolCall,
  type ToolDefinition,
  type ToolMessage,
  type UserMessage,
} from "./messages.ts";
/** Token counts and what they cost. */
export { addUsage, costOf, type ModelPrice, NO_USAGE, type TokenUsage } from "./usage.ts";
/** The providers Link knows, the local servers it probes, and the one default price (MDL-1). */
export {
  DEFAULT_PRICE,
  DEFAULT_PROVIDER,
  findProvider,
  isLoopbackUrl,
  LOCAL_PRICE,
  LOCAL_SERVERS,
  type LocalServer,
  type Provider,
  providerAt,
  PROVIDERS,
} from "./providers.ts";
/** Finds a model server answering on this machine's loopback. */
export {
  detectLocalModel,
  type DetectLocalModelOptions,
  type LocalModelServer,
} from "./detect_local_model.ts";
/** Picks an agent's model: --model-url, --model, a local server, a key that is set, or the default. */
export {
  type ModelChoice,
  type ResolvedModel,
  resolveModel,
  type ResolveModelOptions,
} from "./resolve_model.ts";
/** What a streamed answer yields. */
export { type ChatEvent, type FinishReason } from "./chat_event.ts";
/** Calls the model and yields its answer as events; failures are PROVIDER_ERROR. */
export { streamChat, type StreamChatOptions } from "./stream_chat.ts";
/** Reads an answer's events into one whole answer. */
export { type ChatAnswer, collectChat } from "./collect_chat.ts";
/** Why a call failed, kept for the logs (MDL-2). */
export {
  providerError,
  type ProviderFailure,
  type ProviderFailureKind,
  providerFailureOf,
} from "./provider_error.ts";
/** Schemas of what providers send back. */
export { ChatChunk, ChatCompletion, ModelList, ProviderErrorBody, WireUsage } from "./wire_schemas.ts";
