import type { Clock, Secret } from "../../base/mod.ts";
import type { ToolCall, ToolDefinition } from "../model/mod.ts";
import type { ConversationStore } from "../store/mod.ts";
import type { KeptAnswers } from "./kept_answers.ts";
import type { TurnSettings } from "./turn_settings.ts";

/** Link's guess of a model's context when the spec gives none (`[model] context`). */
export const DEFAULT_CONTEXT_TOKENS = 64_000;

/** The model an agent's turns call, and how long they wait on it. */
export interface TurnModel {
  baseUrl: string;
  model: string;
  key?: Secret;
  headers?: Record<string, string>;
  /** Until the answer's first byte (streamChat's 60 s unless told). */
  timeoutMs?: number;
  /** The longest silence mid-answer (streamChat's 60 s unless told). */
  stallMs?: number;
}

/** What one tool call gave back; a failure is said in `content`, never thrown. */
export interface ToolOutcome {
  content: string;
  ok: boolean;
}

/** Where one tool call runs: its conversation, the hops of the message its turn answers, its signal. */
export interface ToolCallContext {
  conversation: string;
  /** The most hops of the messages the turn answers (SCH-9): 0 for the owner's own. */
  hops?: number;
  signal: AbortSignal;
}

/** The tools a turn offers the model, and how a call runs. */
export interface TurnTools {
  /** The tools offered in this conversation (its narrowed list, TRN-12). */
  definitions(conversation: string): Promise<ToolDefinition[]>;
  /** Runs one call to its end. */
  run(call: ToolCall, context: ToolCallContext): Promise<ToolOutcome>;
}

/** No tools at all. */
export const NO_TOOLS: TurnTools = Object.freeze({
  definitions: () => Promise.resolve([]),
  run: (call: ToolCall) =>
    Promise.resolve({ content: `There is no tool "${call.function.name}"`, ok: false }),
});

/**
 * One agent as its turns see it, keyed by ID and owner, never by name (IDN-9): its store, its
 * kept answers, its model, tools, prompt and turn settings.
 */
export interface TurnAgent {
  id: string;
  owner: string;
  name: string;
  store: ConversationStore;
  kept: KeptAnswers;
  model: TurnModel;
  tools: TurnTools;
  /** The system prompt, fixed for a start so a provider's prompt cache holds. */
  system: string;
  turns: TurnSettings;
  /** Tokens of context the model takes; a message above it is refused. */
  contextTokens: number;
  clock: Clock;
  /**
   * Where each process taking this agent's turns keeps its mark while it lives (holder_marks.ts),
   * so the next harness takes the lease of one that died at once; without it, a lease of another
   * sandbox's harness waits out the lapse.
   */
  holders?: string;
}
