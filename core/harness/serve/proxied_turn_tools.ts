import type { ToolDefinition } from "../model/mod.ts";
import type { ConversationStore } from "../store/mod.ts";
import { narrowTools } from "../tools/narrow_tools.ts";
import type { ProxiedTools } from "../tools/proxied_call.ts";
import type { TurnTools } from "../turns/turn_agent.ts";

/**
 * The harness's own tools followed by Link's tools from the tool proxy (SBX-18), as one fixed list
 * for the start (PRN-2): the proxy's are listed once (`proxied`, awaited by the first turn that
 * needs them, and the same for every turn after), each narrowed to the conversation's list
 * (TRN-12). A call of one of Link's tools goes with its conversation, the hops of the message its
 * turn answers and the conversation's tools in `_meta` (SCH-9, SCH-7).
 */
export function withProxiedTools(
  own: TurnTools,
  proxied: Promise<ProxiedTools | undefined>,
  store: ConversationStore,
): TurnTools {
  const theirs = async (conversation: string): Promise<ToolDefinition[]> => {
    const tools = await proxied;
    if (!tools) return [];
    const named = tools.definitions.map((d) => ({ name: d.function.name, definition: d }));
    return narrowTools(named, await store.toolsRead(conversation)).map((t) => t.definition);
  };
  const definitions = async (conversation: string): Promise<ToolDefinition[]> => [
    ...await own.definitions(conversation),
    ...await theirs(conversation),
  ];
  return {
    definitions,
    async run(call, context) {
      const name = call.function.name;
      const mine = (await theirs(context.conversation)).some((d) => d.function.name === name);
      const tools = await proxied;
      if (!mine || !tools) return await own.run(call, context);
      let args: unknown;
      try {
        args = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
      } catch {
        return { content: `Cannot run ${name}: its arguments are not valid JSON`, ok: false };
      }
      const names = (await definitions(context.conversation)).map((d) => d.function.name);
      return await tools.call(name, args, {
        thread: context.conversation,
        hops: context.hops ?? 0,
        tools: names,
      }, context.signal);
    },
  };
}
