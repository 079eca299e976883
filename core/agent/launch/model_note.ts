import { KNOWN } from "../../adapters/mod.ts";
import { PROVIDERS } from "../../harness/model/mod.ts";
import type { AgentContext } from "../context.ts";
import { modelWiring, WIRED_BY_DEFAULT } from "../grants/mod.ts";
import type { AgentSettings } from "../settings.ts";

/**
 * What a start says when the agent has no model to call: a hosted provider's model with no key
 * set where it starts, and no local model server answering. Looks only at this machine's
 * environment and loopback, never at a provider (MDL-2). Undefined when it has one, or when its
 * harness picks its model itself.
 */
export async function modelNote(ctx: AgentContext, agent: AgentSettings): Promise<string | undefined> {
  if (!WIRED_BY_DEFAULT.includes(agent.harness)) return undefined;
  // A model that cannot be picked at all fails the start itself, with its own reason.
  const wiring = await modelWiring(agent, { env: ctx.env }).catch(() => undefined);
  if (!wiring) return undefined;
  if (wiring.keySet || !wiring.keyVar) return undefined;
  const title = KNOWN[agent.harness]?.title ?? agent.harness;
  const others = PROVIDERS.map((p) => p.keyVar).filter((v) => v !== wiring.keyVar);
  const flag = agent.name === "main" ? "" : ` --agent ${agent.name}`;
  return [
    `Agent "${agent.name}" has no model to call yet: ${wiring.keyVar} is not set and no local model answers`,
    `  ${title} answers nothing until it has one. Either:`,
    `  - set a key, such as \`export ${wiring.keyVar}=<your key>\` (or ${others.join(", ")}),` +
    ` then run \`lnk agent stop${flag}\` and \`lnk agent start${flag}\` from that shell; or`,
    "  - run a model server on this machine (Ollama on port 11434, llama.cpp on 8080, LM Studio on 1234):",
    "    Link uses the first that answers at the agent's next start",
  ].join("\n");
}
