import type { ChatMessage } from "../model/mod.ts";

/** A guess of how many tokens a text takes. */
export type TokenEstimate = (text: string) => number;

/** The default guess: a token is about four characters. */
export function charTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What a message costs beside its text: its role and framing. */
export const PER_MESSAGE = 4;

/** A guess of what messages take of the context: their text, tool calls and framing. */
export function messagesTokens(
  messages: readonly ChatMessage[],
  estimate: TokenEstimate = charTokens,
): number {
  let total = 0;
  for (const message of messages) {
    total += PER_MESSAGE;
    if (typeof message.content === "string") total += estimate(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) total += part.type === "text" ? estimate(part.text) : 512;
    }
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        total += estimate(call.function.name + call.function.arguments);
      }
    }
  }
  return total;
}
