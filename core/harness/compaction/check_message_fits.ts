import { LinkError } from "../../base/mod.ts";
import { charTokens, type TokenEstimate } from "./estimate.ts";

/**
 * Refuses a message that could never fit the model's context, even alone with the system
 * prompt and the tool list and room for the answer (LinkError "REFUSED", with a hint): compaction
 * can shorten what came before a message, never the message itself.
 */
export function checkMessageFits(
  text: string,
  options: { contextTokens: number; fixedTokens?: number; answerTokens?: number; estimate?: TokenEstimate },
): void {
  const tokens = (options.estimate ?? charTokens)(text);
  const room = options.answerTokens ?? Math.min(4096, Math.floor(options.contextTokens / 4));
  const limit = Math.max(0, options.contextTokens - (options.fixedTokens ?? 0) - room);
  if (tokens <= limit) return;
  throw new LinkError(
    "REFUSED",
    `Cannot send this message: it is longer than the model's context (about ${tokens} tokens, and a message may take ${limit})`,
    {
      hint: "Send it in shorter parts, or save it as a file in the agent's Home and ask the agent to read it",
    },
  );
}
