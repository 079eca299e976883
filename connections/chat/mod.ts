/**
 * What every chat connection shares, and none of their clients: the one-time pairing code, and
 * splitting an answer at a platform's limit, so a connection's bridge loads only its own client.
 * @module
 */
/** A one-time pairing code, unguessable in its ten minutes and easy to type; whether a text is it. */
export { isPairingCode, newPairingCode } from "./pairing_code.ts";
/** Splits an answer at a limit, never inside a code block if it can be helped. */
export { splitAnswer } from "./split_answer.ts";
