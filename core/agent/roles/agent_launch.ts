import { type AgentKey, LinkError } from "../../base/mod.ts";
import { loadAgentConfig } from "../agent_config.ts";
import type { AgentContext } from "../context.ts";
import { loadMachine } from "../machine.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../spec.ts";
import { type HarnessProcess, startPlainHarness } from "./harness_process.ts";
import { launchSandboxedHarness } from "./launch_sandboxed.ts";
import { planSandboxedHarness, type SandboxedHarnessOptions } from "./sandboxed_harness.ts";

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
    return {
      agent,
      spec,
      sandboxed: true,
      launch: (key, launch) =>
        launchSandboxedHarness(planned, key, { upstream: options.upstream, signal: launch.signal }),
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
  return {
    agent,
    spec,
    sandboxed: false,
    launch: (key, launch) =>
      startPlainHarness(agent, key, { paths: ctx.paths, spec, socket: launch.socket, netDir }),
  };
}
