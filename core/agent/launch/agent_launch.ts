import { type AgentKey, LinkError, logger } from "../../base/mod.ts";
import { launchOnSharedHarness } from "./shared_harness_launch.ts";
import { sharedRefusal } from "./shared_eligible.ts";
import type { SandboxedHarnessPlan } from "./launch_sandboxed.ts";
import { loadAgentConfig } from "../agent_config.ts";
import type { AgentContext } from "../context.ts";
import { loadMachine } from "../machine.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../../spec/mod.ts";
import { type HarnessProcess, startPlainHarness } from "./harness_process.ts";
import { launchSandboxedHarness } from "./launch_sandboxed.ts";
import { planSandboxedHarness, type SandboxedHarnessOptions } from "./sandboxed_harness.ts";
import { adapterPlanFor } from "./adapter_plan.ts";
import { layoutOf } from "../layout.ts";
import { harnessHomeOf } from "../grants/mod.ts";
import { join } from "node:path";
import { resolveModel } from "../../harness/model/mod.ts";

const log = logger("agent");

/** What preparing a start takes besides the agent; tests point the outside world at fakes. */
export type AgentLaunchOptions = Omit<SandboxedHarnessOptions, "spec">;

/**
 * An agent's harness start made ready ahead: its spec and grants read, its model picked, its
 * sandbox planned and user namespaces checked, so that starting it is only the spawn, the proxy
 * and the relays (PRC-13). Each launch is a start of its own: a new proxy secret (SBX-19).
 */
export interface AgentLaunch {
  /** The settings it was prepared from. */
  readonly agent: AgentSettings;
  readonly spec: Spec;
  readonly sandboxed: boolean;
  /** Starts the harness with the agent's key, serving its endpoint on `socket`; resolves once it is ready. */
  launch(key: AgentKey, options: { socket: string; signal?: AbortSignal }): Promise<HarnessProcess>;
}

/**
 * Whether the owner's shared harness serves this agent (PRC-1..3): `shared_harness = true` in
 * machine.toml, and the agent reaches nothing but through its own proxy (no port of this machine
 * relayed in, its model included); otherwise it keeps a sandbox of its own.
 */
async function sharesHarness(ctx: AgentContext, planned: SandboxedHarnessPlan): Promise<boolean> {
  if (!(await loadMachine(ctx.paths)).shared_harness) return false;
  if (!planned.proxy || planned.ports.length > 0) return false;
  // The harness's policy as the plan read it: its proxy's spec is that policy's.
  const refusal = sharedRefusal({ agent: planned.agent, spec: planned.proxy.spec });
  if (refusal) log.info("The agent keeps a sandbox of its own", { agent: planned.agent.id, reason: refusal });
  return refusal === undefined;
}

/**
 * Prepares the agent's harness start: in its sandbox behind its own proxy unless its sandbox is
 * off (GRT-6), which this machine must allow, checked at every start so a start from before
 * `unsandboxed = false` never runs (GRT-10). A machine that cannot make the sandbox fails with
 * the reason, never a fallback to no sandbox (SBX-3).
 */
export async function prepareAgentLaunch(
  ctx: AgentContext,
  agent: AgentSettings,
  options: AgentLaunchOptions = {},
): Promise<AgentLaunch> {
  const { spec } = await loadAgentConfig(ctx.paths, agent);
  if (agent.sandbox.enabled) {
    const planned = await planSandboxedHarness(ctx, agent, { ...options, spec });
    const own = (key: AgentKey, signal?: AbortSignal) =>
      launchSandboxedHarness(planned, key, { upstream: options.upstream, signal });
    if (!(await sharesHarness(ctx, planned))) {
      return { agent, spec, sandboxed: true, launch: (key, launch) => own(key, launch.signal) };
    }
    return {
      agent,
      spec,
      sandboxed: true,
      launch: async (key, launch) => {
        try {
          return await launchOnSharedHarness(ctx, planned, key, { ...launch, upstream: options.upstream });
        } catch (err) {
          // Its grants changed since the shared harness started, with other agents on it (PRC-2).
          if (!(err instanceof LinkError && err.code === "CONFLICT")) throw err;
          log.warn("The agent runs in a sandbox of its own for now", {
            agent: agent.id,
            reason: err.message,
          });
          return await own(key, launch.signal);
        }
      },
    };
  }
  if (!(await loadMachine(ctx.paths)).unsandboxed) {
    throw new LinkError(
      "SANDBOX_REFUSED",
      `Cannot run agent "${agent.name}" without a sandbox: this machine refuses it`,
      {
        hint: "machine.toml says `unsandboxed = false`; run `lnk agent start --sandbox` to run it sandboxed",
      },
    );
  }
  const netDir = ctx.paths.net(agent.id);
  // A harness Link did not write runs under the hub here too, its model called as it is (GRT-23).
  const adapted = await adapterPlanFor(ctx, agent, { proxied: false });
  const model = adapted && await resolveModel({
    model: agent.model,
    modelUrl: agent.model_url,
    env: ctx.env,
    candidates: options.modelCandidates,
    signal: options.signal,
  });
  const more = model && {
    model: { baseUrl: model.baseUrl, model: model.model, key: model.key?.reveal() },
    folders: { home: layoutOf(ctx.paths, agent).home, agent: layoutOf(ctx.paths, agent).agent },
  };
  return {
    agent,
    spec,
    sandboxed: false,
    launch: (key, launch) =>
      startPlainHarness(agent, key, {
        paths: ctx.paths,
        spec,
        socket: launch.socket,
        netDir,
        hub: adapted?.hub,
        more,
        hubState: adapted && join(harnessHomeOf(ctx.paths, agent), ".lnk"),
      }),
  };
}
