/**
 * Link Harness's compaction (PRN-3): deciding when a conversation nears the model's context,
 * summarising its earlier events into a `summary` event by asking the model, and building the
 * next call's messages with the latest summary in place of the events it covers. No event is
 * ever deleted.
 * @module
 */
/** Token guesses: about four characters a token. */
export { charTokens, messagesTokens, PER_MESSAGE, type TokenEstimate } from "./estimate.ts";
/** The messages for the next model call, from events and the latest summary (TRN-4 for calls not made). */
export { latestSummary, modelMessages, NOT_COMPLETED, SUMMARY_OPENING } from "./model_messages.ts";
/** Whether to compact now, and through which event. */
export { type CompactionPlan, planCompaction, type PlanCompactionOptions } from "./plan_compaction.ts";
/** The summary event, made by asking the model. */
export { compact, type CompactOptions, SUMMARY_REQUEST } from "./compact.ts";
/** Events as plain text for summarising. */
export { transcriptLines } from "./transcript.ts";
/** Refuses a message longer than the model's context, with a hint. */
export { checkMessageFits } from "./check_message_fits.ts";
