import { join } from "node:path";
import { type AgentKey, logger, roleArgv } from "../../base/mod.ts";
import {
  checkUserNamespaces,
  INSIDE_PROXY_PORT,
  INSIDE_TOOL_PROXY_PORT,
  planSandbox,
  portRelayRules,
  type ProxyUpstream,
  type RelayRule,
  requireUserNamespaces,
  resolveSandboxInput,
  type SandboxAgent,
} from "../../../sandbox/mod.ts";
import { type LocalServer, resolveModel } from "../../harness/model/mod.ts";
import { builtinTools, toolDefinitions } from "../../harness/tools/mod.ts";
import type { AgentContext } from "../context.ts";
import { harnessPolicy, keyWired, modelKeysFor, policySandboxFields } from "../grants/mod.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../../spec/mod.ts";
import { type HarnessProcess, harnessRole } from "./harness_process.ts";
import { launchSandboxedHarness, type SandboxedHarnessPlan } from "./launch_sandboxed.ts";
import { loopbackPort } from "./model_route.ts";
import { adapterPlanFor } from "./adapter_plan.ts";
import { TOOL_SOCKET, type ToolProxySeat } from "./tool_proxy_seat.ts";

const log = logger("agent");

/** What a sandboxed start takes besides the agent; tests point the outside world at fakes. */
export interface SandboxedHarnessOptions {
  readonly spec: Spec;
  readonly signal?: AbortSignal;
  /** Where /proc is read to check user namespaces; tests point it at a fake one. */
  readonly procRoot?: string;
  /** How the proxy reaches upstream (tests: loopback fakes for hosted providers). */
  readonly upstream?: ProxyUpstream;
  /** The local model servers probed to pick the model; Link's list unless told. */
  readonly modelCandidates?: readonly LocalServer[];
  /** The agent's tool proxy, served by its bridge, for Link Harness (SBX-18). */
  readonly toolProxy?: ToolProxySeat;
}

/**
 * Runs the agent's harness in its sandbox behind its own proxy (SBX-1, SBX-7, SBX-16): bubblewrap
 * with the harness's policy (both grant layers, its folders, its home), the proxy in this process
 * on `.net/<id>/proxy.sock` relayed to 127.0.0.1:3128 inside, [localhost] ports and a model on this
 * machine's loopback relayed in on their own ports, and the harness serving its endpoint on
 * `.net/<id>/endpoint.sock`, which the door outside relays to. Link Harness cannot read ~/.lnk or
 * Config/ inside, so it is handed its owner, folders as seen inside, spec, grants, model and proxy
 * on stdin. A machine whose user namespaces are blocked fails with SANDBOX_UNAVAILABLE and the
 * reason: never a silent fallback to no sandbox (SBX-3).
 */
export async function startSandboxedHarness(
  ctx: AgentContext,
  agent: AgentSettings,
  key: AgentKey,
  options: SandboxedHarnessOptions,
): Promise<HarnessProcess> {
  return await launchSandboxedHarness(await planSandboxedHarness(ctx, agent, options), key, options);
}

/** The install folder when there is one (an adapter that installs nothing has none). */
async function installed(folder: string): Promise<string[]> {
  return await Deno.stat(folder).then((s) => (s.isDirectory ? [folder] : []), () => []);
}

/**
 * Plans startSandboxedHarness ahead of the start: user namespaces checked, the harness's policy
 * and sandbox made, its model picked and the keys its proxy adds, so a start only spawns (PRC-13).
 */
export async function planSandboxedHarness(
  ctx: AgentContext,
  agent: AgentSettings,
  options: SandboxedHarnessOptions,
): Promise<SandboxedHarnessPlan> {
  requireUserNamespaces(await checkUserNamespaces({ procRoot: options.procRoot }));
  const own = await harnessPolicy(ctx, agent);
  // A harness Link did not write: what its adapter says it runs (under the hub) and needs.
  const adapted = await adapterPlanFor(ctx, agent, { proxied: own.spec.network.mode === "proxy" });
  const policy = adapted?.needs ? await harnessPolicy(ctx, agent, { needs: adapted.needs }) : own;
  const netDir = ctx.paths.net(agent.id);
  await Deno.mkdir(netDir, { recursive: true, mode: 0o700 });
  const proxied = policy.spec.network.mode === "proxy";
  const keys = proxied ? await modelKeysFor(agent, ctx.env, { candidates: options.modelCandidates }) : [];
  const model = agent.harness === "link" || adapted ? await resolvedModel(ctx, agent, options) : undefined;
  const relays: RelayRule[] = proxied
    ? [{ kind: "tcp-to-unix", port: INSIDE_PROXY_PORT, socket: join(netDir, "proxy.sock") }]
    : [];
  const modelPort = model && loopbackPort(model);
  const ports = proxied
    ? [...new Set([...policy.spec.localhost.ports, ...(modelPort ? [modelPort] : [])])]
    : [];
  relays.push(...portRelayRules(netDir, ports));
  // Link's tools (SBX-18): on the sandbox's own loopback when it has one; on the host's network the
  // harness reaches the socket itself, as the .net folder is bound in.
  const toolProxy = agent.harness === "link" ? options.toolProxy : undefined;
  if (toolProxy && proxied) {
    relays.push({ kind: "tcp-to-unix", port: INSIDE_TOOL_PROXY_PORT, socket: join(netDir, TOOL_SOCKET) });
  }
  // The socket folder as the sandbox shows it: its real path, bound at the same place inside.
  const insideNet = await Deno.realPath(netDir);
  const input = await resolveSandboxInput({
    spec: policy.spec,
    source: policy.source,
    paths: ctx.paths,
    ...policySandboxFields(policy),
    netDir,
    command: roleArgv(harnessRole(agent.harness, join(insideNet, "endpoint.sock"), adapted !== undefined)),
    relays,
    // An outside harness's install folder, read-only at the same path: no grant reaches into ~/.lnk.
    readOnly: adapted ? await installed(ctx.paths.installDir(agent.harness)) : undefined,
  });
  const sandbox = planSandbox(input);
  const folders = insideFolders(input.agent ?? policy.sandboxAgent);
  for (const notice of sandbox.notices) log.warn(notice, { agent: agent.id });
  return {
    agent,
    paths: ctx.paths,
    spec: options.spec,
    netDir,
    insideNet,
    sandbox,
    proxy: proxied ? { spec: policy.spec, keys } : undefined,
    ports,
    model: model && { resolved: model, wired: keyWired(agent).wired },
    toolProxy: toolProxy && { seat: toolProxy, relayed: proxied },
    hub: adapted?.hub,
    input: {
      owner: agent.owner,
      folders,
      // It writes chats/ and its notes in Agent/; run's commands, in its sandbox, never do (LAY-7).
      keepFromRun: policy.harnessWritesChats ? [folders.agent] : undefined,
      spec: options.spec,
      grants: policy.agentSpec,
      // Link Harness's tools as the model is told of them, from the same grants: it loads them
      // only at their first call, so its first model call waits on none (PRC-13).
      tools: agent.harness === "link"
        ? toolDefinitions(builtinTools({ grants: policy.agentSpec }))
        : undefined,
    },
  };
}

/**
 * The agent's folders as the harness finds them inside: Home and Agent/ at their real paths, where
 * the sandbox binds them and each collection it shows (LAY-3). The harness's tools show them as one
 * view, instructions/, skills/ and chats/ beside Home's own folders (LAY-5); its notes go to
 * Agent/memory.
 */
function insideFolders(agent: SandboxAgent): { agent: string; home: string } {
  return { agent: agent.agentDir, home: agent.home };
}

/** The agent's model, resolved here, outside. */
function resolvedModel(ctx: AgentContext, agent: AgentSettings, options: SandboxedHarnessOptions) {
  return resolveModel({
    model: agent.model,
    modelUrl: agent.model_url,
    env: ctx.env,
    candidates: options.modelCandidates,
    signal: options.signal,
  });
}
