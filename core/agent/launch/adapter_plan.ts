import { isLinkError, LinkError, logger } from "../../base/mod.ts";
import {
  type AdapterInput,
  answers,
  askAdapter,
  askContract,
  BUILT_INS,
  findAdapter,
  type NeedsAnswer,
  needsFlags,
  needsLine,
} from "../../adapters/mod.ts";
import type { GrantFlags } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { loadHarnessLayer } from "../grants/mod.ts";
import type { AgentSettings } from "../settings.ts";

const log = logger("agent");

/** What an adapter said for a start: the ACP command the hub runs, and the needs granted with it. */
export interface AdapterPlan {
  readonly hub: { readonly command: readonly string[]; readonly env: Readonly<Record<string, string>> };
  /** The needs, as grant flags, that this start holds beyond the agent's grants and the layer. */
  readonly needs?: GrantFlags;
}

/** The harnesses whose endpoint Link runs itself, asking no adapter. */
const OWN = new Set(["link", "mini"]);

/**
 * Asks the agent's adapter what its start needs (ADP-7, ADP-12, GRT-17): its contract (version 1
 * refused), its needs and its endpoint. A stdio endpoint runs under the hub; a harness with an
 * HTTP endpoint of its own is not run yet (HARNESS_MISSING). A `needs` that exits with an error
 * needs nothing more, said in the log (GRT-17); garbage or an unknown grant refuses the start.
 * A built-in adapter's needs (acp's: where the command's program lives, read-only) are granted for
 * the start; an outside adapter's must be in the harness's layer, `~/.lnk/harnesses/<h>.toml`,
 * until Link asks for them (a later part), else the start is refused, naming them as flags.
 */
export async function adapterPlanFor(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { proxied: boolean },
): Promise<AdapterPlan | undefined> {
  if (OWN.has(agent.harness)) return undefined;
  const adapter = await findAdapter(agent.harness, { env: ctx.env, builtIns: BUILT_INS });
  const ask = {
    env: ctx.env,
    input: adapterInput(agent, options.proxied, ctx.paths.installDir(agent.harness)),
  };
  const contract = await askContract(adapter, ask);
  let needs: NeedsAnswer | undefined;
  if (answers(contract, "needs")) {
    try {
      needs = await askAdapter(adapter, "needs", ask);
    } catch (err) {
      if (!(isLinkError(err, "SERVICE_FAILED") && exited(err))) throw err;
      log.warn("The adapter's needs failed: the harness starts with the defaults", {
        agent: agent.id,
        error: err,
      });
    }
  }
  const endpoint = answers(contract, "endpoint") ? await askAdapter(adapter, "endpoint", ask) : undefined;
  if (!endpoint?.stdio) {
    throw new LinkError(
      "HARNESS_MISSING",
      `Cannot run harness "${agent.harness}": its adapter gives no stdio ACP command, and Link runs no other endpoint of an adapter yet`,
      { hint: 'Its adapter\'s `endpoint` must answer {"stdio": {"command": [...]}}: see docs/adapters.md' },
    );
  }
  const flags = needs && Object.keys(needs.spec).length ? needsFlags(needs.spec) as GrantFlags : undefined;
  if (flags && !("builtIn" in adapter) && !(await loadHarnessLayer(ctx.paths, agent.harness))) {
    throw new LinkError(
      "REFUSED",
      `Cannot start agent "${agent.name}": harness "${agent.harness}" needs ${
        needsLine(needs!.spec)
      }, which no one has granted`,
      {
        hint: `Grant them in ${
          ctx.paths.harnessToml(agent.harness)
        } as sandbox file sections, then start it again`,
      },
    );
  }
  return {
    hub: { command: endpoint.stdio.command, env: endpoint.stdio.env },
    needs: "builtIn" in adapter ? flags : undefined,
  };
}

/**
 * Whether a harness Link knows nothing of by name has an endpoint Link's connections carry to
 * (ADP-6, ADP-7): its adapter answers `endpoint`. An adapter that cannot be asked has none.
 */
export async function adapterHasEndpoint(ctx: AgentContext, agent: AgentSettings): Promise<boolean> {
  try {
    const adapter = await findAdapter(agent.harness, { env: ctx.env, builtIns: BUILT_INS });
    const ask = { env: ctx.env, input: adapterInput(agent, true, ctx.paths.installDir(agent.harness)) };
    const contract = await askContract(adapter, ask);
    if (!answers(contract, "endpoint")) return false;
    return (await askAdapter(adapter, "endpoint", ask)) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The adapter's input: the agent without keys or tokens (GRT-15), `proxied` (GRT-23), and the
 * harness's install folder (docs/adapters.md).
 */
export function adapterInput(agent: AgentSettings, proxied: boolean, install?: string): AdapterInput {
  const own = (agent as Record<string, unknown>)[agent.harness];
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      harness: agent.harness,
      ports: agent.ports,
      settings: typeof own === "object" && own !== null ? own as Record<string, unknown> : {},
    },
    allowed: [],
    proxied,
    ...(install ? { install } : {}),
  };
}

function exited(err: LinkError): boolean {
  return typeof err.cause === "object" && err.cause !== null && "exit" in err.cause;
}
