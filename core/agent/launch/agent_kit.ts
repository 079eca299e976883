import { join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import { BUILT_INS, findAdapter } from "../../adapters/mod.ts";
import { type KitRow, runKit } from "../../adapters/kit/mod.ts";
import type { AgentContext } from "../context.ts";
import { readKey } from "../keyring.ts";
import { adapterInput } from "../adapter_input.ts";
import { type AgentSettings, loadSettings } from "../settings.ts";

/**
 * `lnk agent harness kit`: the conformance kit (ADP-16) against the agent as it runs: its adapter
 * asked as a start asks it, its endpoint reached on its socket with the key its start bound.
 * AGENT_NOT_RUNNING when it has no key bound, so nothing is started for it.
 */
export async function agentKit(ctx: AgentContext, agent: AgentSettings): Promise<KitRow[]> {
  const key = await readKey(ctx.paths, agent.id);
  if (!key) {
    throw new LinkError(
      "AGENT_NOT_RUNNING",
      `Cannot run the kit on agent "${agent.name}": it is not running`,
      {
        hint: `Start it first with \`lnk agent start --agent ${agent.name}\``,
      },
    );
  }
  const settings = await loadSettings(ctx.paths, agent.id);
  return await runKit({
    adapter: await findAdapter(settings.harness, { env: ctx.env, builtIns: BUILT_INS }),
    input: adapterInput(settings, true),
    env: ctx.env,
    endpoint: { path: join(ctx.paths.net(agent.id), "endpoint.sock") },
    agent: { id: agent.id, name: agent.name, key },
  });
}
