import { logger } from "../../core/base/mod.ts";

const log = logger("connections");

// When each message this process kept came: a connection's bridge carries one connection.
const received = new Map<string, number>();

/** Says in the log that a message came and is kept: its platform id, never its text. */
export function messageReceived(key: string | number): void {
  received.set(String(key), Date.now());
  log.info("Message received", { message: String(key) });
}

/**
 * Says in the log that a kept message was answered: the platform's ids of the messages the answer
 * went out in (or how many), and the time from its receipt when it came in this process.
 */
export function answerSent(key: string | number, sent: readonly (string | number)[] | number): void {
  const at = received.get(String(key));
  received.delete(String(key));
  const parts = typeof sent === "number" ? { parts: sent } : { parts: sent.length, sent: sent.map(String) };
  log.info("Answer sent", {
    message: String(key),
    ...parts,
    ...(at === undefined ? {} : { ms: Date.now() - at }),
  });
}

/** Says in the log that a kept message goes unanswered, and why (never its text). */
export function messageDropped(key: string | number, why: string): void {
  received.delete(String(key));
  log.info("Message not answered", { message: String(key), why });
}
