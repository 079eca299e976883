/**
 * What every chat connection shares, and none of their clients: the one-time pairing code,
 * splitting an answer at a platform's limit, the queue of kept messages, one message sent to the
 * agent's endpoint, the kept groups and the held answers' sending, so a connection's bridge loads
 * only its own client.
 * @module
 */
/** A one-time pairing code, unguessable in its ten minutes and easy to type; whether a text is it. */
export { isPairingCode, newPairingCode } from "./pairing_code.ts";
/** Splits an answer at a limit, never inside a code block if it can be helped. */
export { splitAnswer } from "./split_answer.ts";
/** An answer posted then edited in place about once a second, each platform giving how it posts and edits. */
export { AnswerStream, type AnswerStreamOptions, EDIT_EVERY_MS, type SendFailure } from "./answer_stream.ts";
/** The queue of kept messages a carrier answers in order, and its wait for a stop. */
export { EntryQueue, untilAborted } from "./entry_queue.ts";
/** One chat message sent to the agent's endpoint, its answer streamed. */
export { promptAgent, type PromptAgentOptions } from "./prompt_agent.ts";
/** The shared chats an allowed person talked to the agent in, where held answers may go (SCH-3). */
export { groupsPath, heldGroup, keepGroup, KeptGroup, readKeptGroups } from "./kept_groups.ts";
/** Sends the answers the bridge holds for a connection, each once, through the connection's own send. */
export { sendHeldAnswers, type SendHeldOptions } from "./send_held.ts";
/** The inbox every carrier keeps its messages in before it acknowledges them, and its answered keys. */
export { ANSWERED_KEPT, answeredPath, inboxDir, type InboxKind, KeptInbox } from "./kept_inbox.ts";
/** The lines every connection writes of each message: received, answered (ids, parts, time), not answered. */
export { answerSent, messageDropped, messageReceived } from "./message_log.ts";
