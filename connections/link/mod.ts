/**
 * The `link` connection (LOC-1..6): Link's own, with no account or pairing. Its owner is whoever
 * reaches the agent's endpoint as its bridges do; its threads are `link:<name>`. `lnk agent chat`
 * sends on it.
 * @module
 */
/** Thread keys: `link:main` unless named. */
export { DEFAULT_THREAD, LINK_CONNECTION, linkThread } from "./link_thread.ts";
/** Sends one message and streams its answer; Ctrl-C stops only the wait. */
export { type ChatOutcome, sendChat, type SendChatOptions, STEERED_WAIT_MS } from "./send_chat.ts";
/** Answers the bridge holds for a thread (reminders), printed once by the next chat (LOC-5). */
export { HeldAnswer, heldDir, holdAnswer, takeHeld } from "./held_answers.ts";
/** The harness's kept answers, asked for in two steps (TRN-6, U-14). */
export { ackKept, listKept, RecoveredAnswer } from "./kept_client.ts";
/** The way in's one call, `send`, and its client: the harness's, the scheduler runner's (SCH-3). */
export { SEND_ACTION, SendAnswer, SendCall, sendOnWayIn, type WayInCaller } from "./way_in_send.ts";
