import { bridgeFailure } from "../../../link_bridge/mod.ts";

/** Longest conversation id a store bridge takes, in characters. */
export const MAX_CONVERSATION_CHARS = 512;

/**
 * Refuses a conversation id that reads as a way to something else than one of the calling
 * agent's own conversations (TRN-14): a path (leading `/` or `~`, a `.` or `..` part, a
 * backslash), a control character, or an id too long for any driver. A thread key such as
 * `slack:T01/C02` is an id, not a path: its `/` never reaches a file name (conversationFolder).
 */
export function checkConversationScope(conversation: string): void {
  const refuse = (why: string) =>
    bridgeFailure("refused", `Cannot use conversation "${printable(conversation)}": ${why}`);
  if (conversation.length > MAX_CONVERSATION_CHARS) {
    throw refuse(`its id is longer than ${MAX_CONVERSATION_CHARS} characters`);
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(conversation)) throw refuse("its id holds a control character");
  if (conversation.startsWith("/") || conversation.startsWith("~") || conversation.includes("\\")) {
    throw refuse("its id reads as a path, and a store bridge keeps only the agent's own conversations");
  }
  if (conversation.split("/").some((part) => part === "." || part === "..")) {
    throw refuse("its id reads as a path, and a store bridge keeps only the agent's own conversations");
  }
}

function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  const shown = text.replace(/[\u0000-\u001f\u007f]/g, "?");
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}
