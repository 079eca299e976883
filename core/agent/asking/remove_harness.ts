import { join } from "node:path";
import { LinkError } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import { listAgents } from "../agents.ts";
import { agentStatus } from "../agent_status.ts";
import type { AgentSettings } from "../settings.ts";

/** What `lnk agent harness remove|delete` took away. */
export interface HarnessRemoved {
  readonly agent: string;
  readonly harness: string;
  /** The agent's home of the harness, removed (undefined when it had none). */
  readonly home?: string;
  /** The harness's layer `~/.lnk/harnesses/<h>.toml`, removed with the last agent (delete only). */
  readonly layer?: string;
  /** The other agents here still on the harness, for whom the layer stays. */
  readonly others: readonly string[];
}

/**
 * Ends a harness for one agent (CLI-6, GRT-12): removes the agent's home of it,
 * `~/.lnk/agents/<id>/harnesses/<h>`. `remove` keeps the harness's answers on this machine
 * (`~/.lnk/harnesses/<h>.toml`), so a later `use` asks nothing it asked before; `delete` also
 * takes that file away with the last agent here on the harness, keeping it while another runs it.
 * The harness the agent runs now is refused while the agent runs.
 */
export async function removeHarnessOf(
  ctx: AgentContext,
  agent: AgentSettings,
  harness: string,
  options: { layer: boolean },
): Promise<HarnessRemoved> {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(harness)) {
    throw new LinkError("USAGE", `Cannot remove harness "${harness}": not a harness's name`, {
      hint: "Name a harness as `lnk agent show` says it, such as link or acp",
    });
  }
  if (harness === agent.harness && (await agentStatus(ctx, agent)).state !== "stopped") {
    throw new LinkError(
      "REFUSED",
      `Cannot remove harness "${harness}" of agent "${agent.name}": it runs on it now`,
      {
        hint:
          `Stop it first with \`lnk agent stop --agent ${agent.name}\`, or switch with \`lnk agent use <harness>\``,
      },
    );
  }
  const home = join(ctx.paths.agentState(agent.id), "harnesses", harness);
  const had = await Deno.lstat(home).then(() => true, () => false);
  if (had) await Deno.remove(home, { recursive: true });
  const others = (await listAgents(ctx)).filter((a) => a.id !== agent.id && a.harness === harness).map((a) =>
    a.name
  );
  let layer: string | undefined;
  if (options.layer && !others.length) {
    const path = ctx.paths.harnessToml(harness);
    if (await Deno.lstat(path).then(() => true, () => false)) {
      await Deno.remove(path);
      layer = path;
    }
  }
  return { agent: agent.name, harness, ...(had ? { home } : {}), ...(layer ? { layer } : {}), others };
}
