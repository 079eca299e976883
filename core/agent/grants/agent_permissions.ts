import { isLinkError } from "../../base/mod.ts";
import { askAdapter, BUILT_INS, KNOWN, type NeedsAnswer, needsFlags, needsLine } from "../../adapters/mod.ts";
import {
  type GrantFlags,
  planSandbox,
  PROTECTED_NAMES,
  protectedNow,
  type ProtectedPlace,
  resolveSandboxInput,
  type SandboxSpec,
} from "../../../sandbox/mod.ts";
import type { LocalServer } from "../../harness/model/mod.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { type HarnessPolicy, harnessPolicy, policySandboxFields } from "./harness_policy.ts";
import { modelWiring } from "./model_keys.ts";

/** One path of the agent (the harness, its tools, run's commands, setup steps, the health check) and how it runs. */
export interface AgentPath {
  readonly path: string;
  readonly runs: string;
}

/** What `lnk agent show --permissions` lists: what every path of the agent runs with (SBX-10). */
export interface AgentPermissions {
  readonly agent: string;
  readonly harness: string;
  readonly sandbox: "on" | "off";
  /** The agent's own grants, Config/sandbox.toml (GRT-1). */
  readonly grants: SandboxSpec;
  /** The harness's layer, as `lnk agent allow` flags, when it has one (GRT-2). */
  readonly harnessLayer: { readonly path: string; readonly flags: readonly string[] } | null;
  /** What a built-in adapter's needs add at each start (acp's program folders), as flags, and why. */
  readonly harnessNeeds: { readonly flags: readonly string[]; readonly why: readonly string[] } | null;
  /** Both layers together: what the harness's sandbox holds. */
  readonly effective: SandboxSpec;
  readonly modelKey: {
    readonly wired: boolean;
    readonly by: "setting" | "default";
    readonly provider: string;
    readonly keyVar: string | null;
    readonly keySet: boolean;
  };
  readonly paths: readonly AgentPath[];
  /** The protected places kept read-only wherever it writes, and what holds at each now; null with no sandbox. */
  readonly protected: ProtectedPermissions | null;
}

/** The protected places of `lnk agent show --permissions`: the lists, what is kept now, what the owner lifted. */
export interface ProtectedPermissions {
  /** In every writable place and each repository found in one (`.git` pinned). */
  readonly everywhere: readonly string[];
  /** In each repository's `.git`. */
  readonly inGit: readonly string[];
  /** In your home folder, when a sandbox can write it. */
  readonly inHome: readonly string[];
  /** The writable places looked in now. */
  readonly places: readonly string[];
  /** Each protected place there now and what holds at it: pinned, read-only, placeholder, lifted. */
  readonly kept: readonly ProtectedPlace[];
  /** Lifted by the owner ([protected] writable, `--write-protected`), as written. */
  readonly lifted: readonly string[];
  /** Limits the walk for repositories reached, or why the next start would be refused. */
  readonly notices: readonly string[];
}

/**
 * What every path of the agent runs with (SBX-10, SBX-13, SBX-20): the harness in its sandbox
 * under both layers, its tools and run's commands under the same grants and route, each setup
 * step behind a proxy of its own, and the health check with no network but the harness's ports.
 */
export async function agentPermissions(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { modelCandidates?: readonly LocalServer[] } = {},
): Promise<AgentPermissions> {
  const needs = await builtInNeeds(ctx, agent);
  const policy = await harnessPolicy(ctx, agent, { needs: needs && needsFlags(needs.spec) as GrantFlags });
  const wiring = await modelWiring(agent, { env: ctx.env, candidates: options.modelCandidates });
  const layerFlags = policy.layer
    ? Object.entries(policy.layer.flags).flatMap(([flag, value]) =>
      (Array.isArray(value) ? value : [value]).map((v) => `--${flag} ${v}`)
    )
    : [];
  return {
    agent: agent.name,
    harness: agent.harness,
    sandbox: agent.sandbox.enabled ? "on" : "off",
    grants: policy.agentSpec,
    harnessLayer: policy.layer ? { path: policy.layer.path, flags: layerFlags } : null,
    harnessNeeds: needs
      ? { flags: needsLine(needs.spec).split(/ (?=--)/), why: Object.values(needs.why) }
      : null,
    effective: policy.spec,
    modelKey: {
      wired: wiring.wired,
      by: wiring.by,
      provider: wiring.provider,
      keyVar: wiring.keyVar ?? null,
      keySet: wiring.keySet,
    },
    paths: pathsOf(agent, policy.spec, policy.folders === "layout"),
    protected: agent.sandbox.enabled ? await protectedOf(ctx, policy) : null,
  };
}

/**
 * A built-in adapter's needs for the agent (acp's: where its command's program lives), as its next
 * start grants them; none for Link's own harnesses, an outside adapter (its needs are its layer's)
 * or one that cannot say (a program no longer on the PATH: the start says why).
 */
async function builtInNeeds(ctx: AgentContext, agent: AgentSettings): Promise<NeedsAnswer | undefined> {
  const builtIn = BUILT_INS.find((b) => b.harness === agent.harness);
  if (!builtIn) return undefined;
  const own = (agent as Record<string, unknown>)[agent.harness];
  const settings = typeof own === "object" && own !== null ? own as Record<string, unknown> : {};
  try {
    const answer = await askAdapter({ harness: agent.harness, builtIn }, "needs", {
      env: ctx.env,
      input: {
        agent: { id: agent.id, name: agent.name, harness: agent.harness, ports: agent.ports, settings },
      },
    });
    return answer && Object.keys(answer.spec).length ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** The protected places as the next start would keep them, looked at without making or mounting anything. */
async function protectedOf(ctx: AgentContext, policy: HarnessPolicy): Promise<ProtectedPermissions> {
  const lists = {
    everywhere: PROTECTED_NAMES.places,
    inGit: PROTECTED_NAMES.git,
    inHome: PROTECTED_NAMES.home,
    lifted: policy.spec.protected.writable,
  };
  try {
    const input = await resolveSandboxInput({
      spec: policy.spec,
      source: policy.source,
      paths: ctx.paths,
      ...policySandboxFields(policy),
      command: ["true"],
      runtime: false,
    }, { probe: false });
    return { ...lists, ...protectedNow(planSandbox(input).view) };
  } catch (err) {
    if (!isLinkError(err, "SYMLINK_REFUSED") && !isLinkError(err, "SANDBOX_REFUSED")) throw err;
    return { ...lists, places: [], kept: [], notices: [err.message] };
  }
}

function pathsOf(agent: AgentSettings, spec: SandboxSpec, layout: boolean): AgentPath[] {
  if (!agent.sandbox.enabled) {
    const off = "without a sandbox or a proxy (`lnk agent start --sandbox` turns it back on)";
    return ["harness", "its tools", "run's commands"].map((path) => ({ path, runs: off }));
  }
  const route = spec.network.mode === "host"
    ? "the network as it is (host mode)"
    : `its proxy: ${hostsOf(spec)}`;
  // Link's own adapters (link, mini, acp) have no setup steps: nothing is installed or configured.
  const builtIn = KNOWN[agent.harness]?.builtIn ?? false;
  return [
    {
      path: `harness (${agent.harness})`,
      runs:
        `in its sandbox; ${layout ? "Home and folders per [files]" : "all of Home, Agent/ out of reach"}; ` +
        `out through ${route}`,
    },
    {
      path: "its tools (files, web, notes)",
      runs: `[files] as granted, chats/ never writable; web through the same route (${route})`,
    },
    {
      path: "run's commands",
      runs: `in the harness's sandbox with its grants and route, never writing Agent/ (Landlock); programs: ${
        spec.commands.allow.join(", ") || "none"
      }`,
    },
    {
      path: "setup steps (installer, configure, link)",
      runs: builtIn
        ? KNOWN[agent.harness]?.foreign
          ? "none: you installed the harness yourself; its adapter is built into lnk"
          : "none: the harness is built into lnk"
        : `each behind a proxy of its own, direct from this machine, never the network as it is; ` +
          `installer and configure reach only \`lnk-${agent.harness} internet-hosts\`, link any host`,
    },
    {
      path: "health check",
      runs:
        `no proxy and no network: only the harness's own ports on this machine's loopback (${agent.ports.endpoint})`,
    },
  ];
}

function hostsOf(spec: SandboxSpec): string {
  const hosts = spec.internet.hosts.includes("*") ? "any host" : spec.internet.hosts.join(", ") || "no host";
  const tcp = spec.internet.tcp.length ? `; tcp ${spec.internet.tcp.join(", ")}` : "";
  return `${hosts} on ports 443 and 80${tcp}`;
}
