import { join } from "node:path";
import { type AgentKey, logger, roleArgv } from "../../base/mod.ts";
import {
  checkUserNamespaces,
  INSIDE_PROXY_PORT,
  planSandbox,
  type RelayRule,
  requireUserNamespaces,
  resolveSandboxInput,
  runSandboxed,
  type SandboxAgent,
  serveRelay,
} from "../../../sandbox/mod.ts";
import { type LocalServer, resolveModel } from "../../harness/model/mod.ts";
import type { AgentContext } from "../context.ts";
import { harnessPolicy, keyWired, modelKeysFor } from "../grants/mod.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../spec.ts";
import { type AgentProxy, type ProxyUpstream, startAgentProxy } from "./agent_proxy.ts";
import { harnessInputLine, type HarnessProcess, harnessRole } from "./harness_process.ts";
import { type ModelRoute, modelRoute } from "./model_route.ts";
import { readSandboxReady } from "./sandbox_ready.ts";

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
  requireUserNamespaces(await checkUserNamespaces({ procRoot: options.procRoot }));
  const policy = await harnessPolicy(ctx, agent);
  await using stack = new AsyncDisposableStack();
  const netDir = ctx.paths.net(agent.id);
  await Deno.mkdir(netDir, { recursive: true, mode: 0o700 });
  const proxied = policy.spec.network.mode === "proxy";
  let proxy: AgentProxy | undefined;
  if (proxied) {
    const keys = await modelKeysFor(agent, ctx.env, { candidates: options.modelCandidates });
    proxy = stack.use(await startAgentProxy(netDir, policy.spec, { ...options, keys }));
  }
  const route = agent.harness === "link" ? await routeOf(ctx, agent, proxy, options) : undefined;
  const relays: RelayRule[] = proxy
    ? [{ kind: "tcp-to-unix", port: INSIDE_PROXY_PORT, socket: proxy.socket }]
    : [];
  const ports = proxied
    ? new Set([...policy.spec.localhost.ports, ...(route?.port ? [route.port] : [])])
    : [];
  for (const port of ports) {
    const socket = join(netDir, `port-${port}.sock`);
    stack.use(await serveRelay({ kind: "unix-to-tcp", socket, port }, { signal: options.signal }));
    relays.push({ kind: "tcp-to-unix", port, socket });
  }
  // The socket folder as the sandbox shows it: its real path, bound at the same place inside.
  const insideNet = await Deno.realPath(netDir);
  const input = await resolveSandboxInput({
    spec: policy.spec,
    source: policy.source,
    paths: ctx.paths,
    agent: policy.sandboxAgent,
    folders: policy.folders,
    harnessWritesChats: policy.harnessWritesChats,
    harnessWritesNotes: policy.harnessWritesNotes,
    harnessHome: policy.harnessHome,
    netDir,
    command: roleArgv(harnessRole(agent.harness, join(insideNet, "endpoint.sock"))),
    env: proxy?.env,
    relays,
    hide: policy.hide,
  });
  const plan = planSandbox(input);
  for (const notice of plan.notices) log.warn(notice, { agent: agent.id });
  const sandbox = stack.use(
    // A session of its own: stopping the service stops the harness through stop(), cleanly.
    await runSandboxed(plan, {
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
      signal: options.signal,
      ownSession: true,
    }),
  );
  const line = harnessInputLine(agent, key, {
    paths: ctx.paths,
    spec: options.spec,
    netDir: insideNet,
    more: {
      owner: agent.owner,
      folders: insideFolders(input.agent ?? policy.sandboxAgent),
      spec: options.spec,
      grants: policy.agentSpec,
      model: route?.model,
      proxy: proxy && { url: proxy.root },
    },
  });
  await writeAll(sandbox.child.stdin, line);
  await readSandboxReady(sandbox.child.stdout, sandbox.status);
  const owned = stack.move();
  let stopping: Promise<void> | undefined;
  const stop = () => stopping ??= sandbox.stop().then(() => owned.disposeAsync());
  return {
    pid: sandbox.pid,
    status: sandbox.status,
    sandboxed: true,
    proxied,
    stop,
    [Symbol.asyncDispose]: stop,
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

/** The agent's model (resolved here, outside) as the harness reaches it from inside. */
async function routeOf(
  ctx: AgentContext,
  agent: AgentSettings,
  proxy: AgentProxy | undefined,
  options: SandboxedHarnessOptions,
): Promise<ModelRoute> {
  const model = await resolveModel({
    model: agent.model,
    modelUrl: agent.model_url,
    env: ctx.env,
    candidates: options.modelCandidates,
    signal: options.signal,
  });
  return modelRoute(model, { proxy, wired: keyWired(agent).wired });
}

async function writeAll(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The sandbox ended first; its status says why.
  }
}
