/**
 * Link Harness: the agent loop (ARCHITECTURE.md section 5). Its endpoint answers ACP with the
 * thread key in `_meta`; one turn runs per conversation under a lease (TRN-1..8); a message
 * mid-turn steers it (TRN-9..11); a crashed turn is finished by the next taker and its answer
 * kept for `/_link/recover` (TRN-4..6). Its store, model, tools, prompt and compaction are
 * folders of their own, each with its mod.ts.
 * @module
 */
/** `lnk harness serve`: the role, what it reads from stdin, and serving in-process. */
export { runHarnessServeRole } from "./serve/run_harness_serve_role.ts";
export { HarnessServeInput, ServedAgentInput } from "./serve/harness_input.ts";
export { type HarnessServer, serveHarness, type ServeHarnessOptions } from "./serve/serve_harness.ts";
/** One agent read from its settings, spec and grants, ready to serve. */
export { keptDir, type LoadedAgent, loadServedAgent } from "./serve/load_served_agent.ts";
/** The harness's own tools as turns use them, narrowed per conversation (TRN-12). */
export { harnessTurnTools, type ToolBase } from "./serve/harness_tools.ts";
/** The endpoint: proof, ACP, `/_link/recover`; the agent a request is for (ADP-4, ADP-5). */
export { harnessHandler } from "./endpoint/harness_handler.ts";
export { agentFor, type ServedAgent } from "./endpoint/served_agent.ts";
export { RECOVER_ACK_PATH, RECOVER_PATH, RECOVER_WAIT_MAX_MS } from "./endpoint/recover_route.ts";
export { ERROR_META } from "./endpoint/ndjson_sink.ts";
/** One agent's conversations: messages in, turns under leases, steering, recovery. */
export { AgentTurns, type IncomingMessage, type Reception } from "./turns/agent_turns.ts";
/** An agent as its turns see it, and its model and tools. */
export {
  DEFAULT_CONTEXT_TOKENS,
  NO_TOOLS,
  type ToolOutcome,
  type TurnAgent,
  type TurnModel,
  type TurnTools,
} from "./turns/turn_agent.ts";
/** `[turns]` of the spec. */
export { type BusyMode, DEFAULT_TURNS, type TurnSettings, turnSettingsOf } from "./turns/turn_settings.ts";
/** Answers kept until acknowledged (TRN-6, LOC-5). */
export { KeptAnswer, KeptAnswers } from "./turns/kept_answers.ts";
/** Where a conversation stands, read from its events. */
export { type ConversationState, conversationState } from "./turns/conversation_state.ts";
/** turn.take and the lease kept renewed; this process as a lease holder. */
export { LeaseKeeper, takeLease, type TakeOptions } from "./turns/lease_keeper.ts";
export { holderIsDead, sameHolder, thisHolder } from "./turns/lease_holder.ts";
/** What a crashed turn's unfinished tool calls are answered with (TRN-4). */
export { CANCELLED, NOT_MADE } from "./turns/tool_step.ts";
