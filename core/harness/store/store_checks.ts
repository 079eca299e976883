import { LinkError } from "../../base/mod.ts";

/** Throws USAGE unless `n` can number an event: a whole number from 1. */
export function checkEventNumber(n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new LinkError("USAGE", `Cannot use event number "${n}": event numbers are whole numbers from 1`);
  }
}

/** Throws USAGE unless `conversation` is an id: a string that is not empty. */
export function checkConversationId(conversation: string): void {
  if (typeof conversation !== "string" || conversation.length === 0) {
    throw new LinkError("USAGE", "Cannot store a conversation without an id");
  }
}
