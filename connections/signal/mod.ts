/**
 * The Signal connection (CON-6, CON-9, CON-10, CON-13, CON-14): checks the person's own signal-cli
 * daemon and carries the owner's direct messages (and those of the people let in) to the agent's
 * endpoint over the daemon's JSON-RPC and event stream, showing typing while a turn runs and
 * sending each whole answer back, never losing or doubling a message. No npm client: a small one
 * over fetch.
 * @module
 */
/** Where the signal-cli daemon answers, and the agent's number when it serves several. */
export { type SignalAccount } from "./signal_account.ts";
/** Asks the daemon its version and whether it serves the number; how to start it. */
export { checkSignalDaemon, DAEMON_COMMAND } from "./check_signal_daemon.ts";
/** Carries the owner's direct messages to the agent's endpoint and each answer back, until stopped. */
export { carrySignal, type CarrySignalOptions } from "./carry_signal.ts";
/** How the carrier is: connected, reconnecting or failed, with why. */
export { type SignalState } from "./signal_state.ts";
/** Answering: the split limit, how often typing is shown again, the reply to a message with no text. */
export { ONLY_TEXT_REPLY, SIGNAL_LIMIT, TYPING_EVERY_MS } from "./answer_envelope.ts";
/** How long the event stream may be silent, and the longest wait before reaching the daemon again. */
export { MAX_RETRY_MS, STALE_MS } from "./receive_events.ts";
/** The inbox of kept envelopes and the list of answered ones, in the connection's folder. */
export { answeredPath, inboxDir } from "../chat/mod.ts";
