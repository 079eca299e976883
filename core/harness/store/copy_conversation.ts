import { LinkError } from "../../base/mod.ts";
import type { ConversationStore } from "./contract.ts";

/** What copyConversation moved. */
export interface CopiedConversation {
  conversation: string;
  /** Events written to the destination; events it already had, identical, are not counted. */
  events: number;
  /** The tool list the destination holds now, or undefined when neither store had one. */
  tools: string[] | undefined;
}

/**
 * Copies one conversation between stores of any drivers (TRN-18: a SQLite-kept conversation and a
 * files-kept one are the same collection): every event under its own number, and the narrowed tool
 * list. The destination's own list, if any, can only narrow it (TRN-12). Copying again is harmless:
 * an event the destination has identically is skipped; a different one under the same number is a
 * CONFLICT. The lease is not copied: a conversation moves between turns.
 */
export async function copyConversation(
  from: ConversationStore,
  to: ConversationStore,
  conversation: string,
): Promise<CopiedConversation> {
  const have = new Map((await to.read(conversation)).map((e) => [e.n, JSON.stringify(e.event)]));
  let events = 0;
  for (const { n, event } of await from.read(conversation)) {
    if (have.get(n) === JSON.stringify(event)) continue;
    if ((await to.append(conversation, n, event)) === "conflict") {
      throw new LinkError(
        "CONFLICT",
        `Cannot copy event ${n} of conversation "${conversation}": the destination has another`,
        {
          hint: "Copy into a store that does not hold this conversation yet",
        },
      );
    }
    events++;
  }
  const tools = await narrowedTools(from, to, conversation);
  if (tools !== undefined) await to.toolsWrite(conversation, tools);
  return { conversation, events, tools };
}

/** Copies every conversation `from` holds, in order. */
export async function copyConversations(
  from: ConversationStore,
  to: ConversationStore,
): Promise<CopiedConversation[]> {
  const copied: CopiedConversation[] = [];
  for (const conversation of await from.list()) copied.push(await copyConversation(from, to, conversation));
  return copied;
}

async function narrowedTools(
  from: ConversationStore,
  to: ConversationStore,
  conversation: string,
): Promise<string[] | undefined> {
  const source = await from.toolsRead(conversation);
  const target = await to.toolsRead(conversation);
  if (source === undefined || target === undefined) return source ?? target;
  return source.filter((tool) => target.includes(tool));
}
