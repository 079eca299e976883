import type { ToolDefinition } from "../model/mod.ts";
import type { ConversationStore } from "../store/mod.ts";
import { narrowTools } from "../tools/narrow_tools.ts";
import type { TurnTools } from "../turns/turn_agent.ts";

/**
 * The harness's own tools as turns use them when their definitions were handed over (PRN-2): the
 * model is told of them narrowed to the conversation's list (TRN-12, TRN-13) without loading them,
 * and the tools themselves load at the first call (`load`, once), so a woken harness's first model
 * call waits on none of them (PRC-13).
 */
export function lazyTurnTools(
  definitions: readonly ToolDefinition[],
  load: () => Promise<TurnTools>,
  store: ConversationStore,
): TurnTools {
  const named = definitions.map((d) => ({ name: d.function.name, definition: d }));
  let loaded: Promise<TurnTools> | undefined;
  return {
    async definitions(conversation) {
      return narrowTools(named, await store.toolsRead(conversation)).map((t) => t.definition);
    },
    async run(call, context) {
      loaded ??= load();
      loaded.catch(() => (loaded = undefined));
      return await (await loaded).run(call, context);
    },
  };
}
