import { logger } from "../../base/mod.ts";
import { charTokens, compact, modelMessages, planCompaction } from "../compaction/mod.ts";
import { type ChatMessage, collectChat, streamChat, type ToolDefinition } from "../model/mod.ts";
import type { EventLog } from "./event_log.ts";
import type { TurnAgent } from "./turn_agent.ts";

const log = logger("harness");

/** What every model call sends besides the events: the system prompt and the tool list. */
export function fixedTokens(agent: TurnAgent, tools: readonly ToolDefinition[]): number {
  return charTokens(agent.system) + charTokens(JSON.stringify(tools));
}

/**
 * The messages of the next model call. When the conversation nears the model's context, its
 * earlier events are first summarised into a summary event (written once, on its number, like
 * every event, after the gate: a new turn's own event); none is deleted (PRN-3).
 */
export async function prepareMessages(
  agent: TurnAgent,
  events: EventLog,
  tools: readonly ToolDefinition[],
  options: { signal: AbortSignal; gate?: Promise<unknown> },
): Promise<ChatMessage[]> {
  const { signal } = options;
  const plan = planCompaction(events.events, {
    contextTokens: agent.contextTokens,
    fixedTokens: fixedTokens(agent, tools),
  });
  if (plan.compact) {
    await options.gate;
    log.info("Compacting a conversation", { agent: agent.id, through: plan.through, tokens: plan.tokens });
    const summary = await compact(events.events, {
      through: plan.through,
      clock: agent.clock,
      summarise: async (text) =>
        (await collectChat(streamChat(
          { model: agent.model.model, messages: [{ role: "user", content: text }] },
          {
            baseUrl: agent.model.baseUrl,
            key: agent.model.key,
            headers: agent.model.headers,
            clock: agent.clock,
            signal,
          },
        ))).text,
    });
    await events.append(summary);
  }
  return modelMessages(events.events, { system: agent.system });
}
