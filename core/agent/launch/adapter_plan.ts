import { isLinkError, LinkError, logger } from "../../base/mod.ts";
import {
  answers,
  askAdapter,
  askContract,
  BUILT_INS,
  findAdapter,
  type NeedsAnswer,
  needsFlags,
} from "../../adapters/mod.ts";
import type { GrantFlags } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { allowedRisks, loadAnswers, needKey, needsOf, ownGrantKeys } from "../asking/mod.ts";
import type { AgentSettings } from "../settings.ts";
import { adapterInput } from "../adapter_input.ts";

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
 * the start; an outside adapter's were asked before the start (askHarnessNeeds, GRT-18) and kept
 * with their answers in `~/.lnk/harnesses/<h>.toml`: one with no answer, or a required risk not
 * allowed, refuses the start naming them. The risks allowed go to the adapter as `allowed`.
 */
export async function adapterPlanFor(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { proxied: boolean },
): Promise<AdapterPlan | undefined> {
  if (OWN.has(agent.harness)) return undefined;
  const adapter = await findAdapter(agent.harness, { env: ctx.env, builtIns: BUILT_INS });
  // Risks allowed go to the adapter as `allowed` (ADP-13, GRT-21).
  const builtIn = "builtIn" in adapter;
  const kept = await loadAnswers(ctx.paths, agent.harness);
  const granted = allowedRisks(kept);
  const ask = {
    env: ctx.env,
    input: adapterInput(agent, options.proxied, {
      install: ctx.paths.installDir(agent.harness),
      allowed: granted,
    }),
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
  if (!builtIn) {
    // The answers were asked before the start (GRT-18, askHarnessNeeds); a need with none refuses.
    const own = await ownGrantKeys(ctx, agent);
    const open = needsOf(needs).filter((need) =>
      kept.needs[needKey(need)] === undefined && !own.has(needKey(need))
    );
    const required = (needs?.risks ?? []).filter((risk) =>
      !risk.optional && kept.risks[risk.name] !== "allow"
    );
    if (open.length || required.length) {
      throw new LinkError(
        "REFUSED",
        `Cannot start agent "${agent.name}": harness "${agent.harness}" needs ${
          [...open.map(needKey), ...required.map((risk) => `risk ${risk.name}`)].join(", ")
        }, which no one has granted`,
        {
          hint: `Start it in a terminal to answer, or with \`lnk agent start --yes\`; answers are kept in ${
            ctx.paths.harnessToml(agent.harness)
          }`,
        },
      );
    }
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
    const ask = {
      env: ctx.env,
      input: adapterInput(agent, true, { install: ctx.paths.installDir(agent.harness) }),
    };
    const contract = await askContract(adapter, ask);
    if (!answers(contract, "endpoint")) return false;
    return (await askAdapter(adapter, "endpoint", ask)) !== undefined;
  } catch {
    return false;
  }
}

function exited(err: LinkError): boolean {
  return typeof err.cause === "object" && err.cause !== null && "exit" in err.cause;
}
