import type { ConversationStore } from "../store/mod.ts";
import { callTool, type HarnessTool, narrowTools, type ToolContext, toolDefinitions } from "../tools/mod.ts";
import type { TurnTools } from "../turns/turn_agent.ts";

/** What every call of an agent's tools shares; the conversation and the signal are the call's. */
export type ToolBase = Omit<ToolContext, "conversation" | "signal">;

/**
 * The harness's own tools as turns use them: the start's fixed list (PRN-2) narrowed to the
 * conversation's list kept beside its events (TRN-12, TRN-13), each call run by name.
 */
export function harnessTurnTools(
  tools: readonly HarnessTool[],
  base: ToolBase,
  store: ConversationStore,
): TurnTools {
  const allowed = async (conversation: string) => narrowTools(tools, await store.toolsRead(conversation));
  return {
    async definitions(conversation) {
      return toolDefinitions(await allowed(conversation));
    },
    async run(call, context) {
      const result = await callTool(
        await allowed(context.conversation),
        { name: call.function.name, arguments: call.function.arguments },
        { ...base, conversation: context.conversation, signal: context.signal },
      );
      return { content: result.content, ok: !result.isError };
    },
  };
}
