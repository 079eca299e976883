import type { ConversationStore } from "../store/mod.ts";
import { narrowToolNames } from "../tools/narrow_tools.ts";

/**
 * Narrows a conversation's tool list (TRN-12): a later list is intersected with the one kept
 * beside its events (TRN-13), so nothing widens a conversation again. Returns the list kept.
 */
export async function narrowConversationTools(
  store: ConversationStore,
  conversation: string,
  tools: readonly string[],
): Promise<string[]> {
  const current = await store.toolsRead(conversation);
  const next = narrowToolNames(current, tools) ?? [];
  if (!current || next.length !== current.length) await store.toolsWrite(conversation, next);
  return next;
}
