import { type AgentKey, type LinkPaths, logger } from "../../base/mod.ts";
import {
  INSIDE_TOOL_PROXY_PORT,
  type ProxyUpstream,
  relayPortsIn,
  runSandboxed,
  type SandboxPlan,
  type SandboxSpec,
  startSandboxProxy,
} from "../../../sandbox/mod.ts";
import type { ProxyKey } from "../../../proxy/mod.ts";
import type { ServedAgentInput } from "../../harness/mod.ts";
import type { ResolvedModel } from "../../harness/model/mod.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../../spec/mod.ts";
import { harnessInputLine, type HarnessProcess, type HubLaunch } from "./harness_process.ts";
import { modelRoute } from "./model_route.ts";
import { readSandboxReady } from "./sandbox_ready.ts";
import { TOOL_SOCKET, type ToolProxySeat } from "./tool_proxy_seat.ts";

const log = logger("agent");

/**
 * A sandboxed harness start, planned: everything read, checked and resolved ahead, so a start is
 * its proxy (a new secret each time, SBX-19), its relays and the spawn (PRC-13).
 */
export interface SandboxedHarnessPlan {
  readonly agent: AgentSettings;
  readonly paths: LinkPaths;
  readonly spec: Spec;
  /** `~/.lnk/agents/.net/<id>`, and its real path, where the sandbox shows it. */
  readonly netDir: string;
  readonly insideNet: string;
  /** bubblewrap's command line and environment, less the proxy's variables each start adds. */
  readonly sandbox: SandboxPlan;
  /** The proxy's grants and the model key it adds, when the harness reaches out through it. */
  readonly proxy?: { readonly spec: SandboxSpec; readonly keys: readonly ProxyKey[] };
  /** Ports of this machine's loopback relayed in: [localhost] ports and a model served here. */
  readonly ports: readonly number[];
  /** Link Harness's model as resolved outside; how it is reached depends on the start's proxy. */
  readonly model?: { readonly resolved: ResolvedModel; readonly wired: boolean };
  /**
   * The agent's tool proxy for Link Harness (SBX-18): relayed to 127.0.0.1:3129 inside when the
   * sandbox has a loopback of its own, else reached at its socket.
   */
  readonly toolProxy?: { readonly seat: ToolProxySeat; readonly relayed: boolean };
  /** What Link Harness is handed on stdin besides its model and proxy. */
  readonly input: Partial<ServedAgentInput>;
  /** For a harness under the hub: the ACP command its adapter gave. */
  readonly hub?: HubLaunch;
}

/** What one start takes besides its plan and key. */
export interface LaunchSandboxedOptions {
  /** Stops the sandbox, the proxy and the relays when it aborts. */
  readonly signal?: AbortSignal;
  /** How the proxy reaches upstream (tests: loopback fakes for hosted providers). */
  readonly upstream?: ProxyUpstream;
}

/**
 * Starts a planned sandboxed harness: its proxy on `.net/<id>/proxy.sock` with a new secret, the
 * relays of its loopback ports, then bubblewrap in a session of its own (stopping the bridge or
 * service stops the harness through stop(), cleanly; --die-with-parent ends it with this process),
 * the harness's input on stdin, and its ready line. Everything is let go again if it fails.
 */
export async function launchSandboxedHarness(
  planned: SandboxedHarnessPlan,
  key: AgentKey,
  options: LaunchSandboxedOptions = {},
): Promise<HarnessProcess> {
  await using stack = new AsyncDisposableStack();
  const { signal } = options;
  await Deno.mkdir(planned.netDir, { recursive: true, mode: 0o700 });
  const proxy = planned.proxy && stack.use(
    await startSandboxProxy(planned.netDir, planned.proxy.spec, {
      keys: planned.proxy.keys,
      signal,
      upstream: options.upstream,
    }),
  );
  stack.use(await relayPortsIn(planned.netDir, planned.ports, { signal }));
  const plan = proxy
    ? { ...planned.sandbox, env: { ...planned.sandbox.env, ...proxy.env } }
    : planned.sandbox;
  const sandbox = stack.use(
    await runSandboxed(plan, {
      stdin: "piped",
      stdout: "piped",
      stderr: "log",
      agent: planned.agent.id,
      signal,
      ownSession: true,
    }),
  );
  const route = planned.model && modelRoute(planned.model.resolved, { proxy, wired: planned.model.wired });
  const line = harnessInputLine(planned.agent, key, {
    paths: planned.paths,
    spec: planned.spec,
    netDir: planned.insideNet,
    hub: planned.hub,
    more: {
      ...planned.input,
      model: route?.model,
      proxy: proxy && { url: proxy.root },
      toolProxy: planned.toolProxy &&
        await toolProxyInput(planned.toolProxy, planned.insideNet, planned.agent.id),
    },
  });
  await writeAndClose(sandbox.child.stdin, line);
  await readSandboxReady(sandbox.child.stdout, sandbox.status, planned.agent.id);
  const owned = stack.move();
  let stopping: Promise<void> | undefined;
  const stop = () => stopping ??= sandbox.stop().then(() => owned.disposeAsync());
  return {
    pid: sandbox.pid,
    status: sandbox.status,
    sandboxed: true,
    proxied: proxy !== undefined,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * The tool proxy as this start's harness reaches it, with a secret made for this start (SBX-19), and
 * its tools as the bridge listed them, so the harness's wake never lists them itself (PRC-13); a
 * list that failed leaves the harness to list them, said in the log.
 */
export async function toolProxyInput(
  tools: { seat: ToolProxySeat; relayed: boolean },
  insideNet: string,
  agentId: string,
): Promise<NonNullable<ServedAgentInput["toolProxy"]>> {
  const listed = await tools.seat.listTools().catch((err) => {
    log.warn("Link's tools were not listed outside: the harness lists them itself", {
      agent: agentId,
      error: err,
    });
    return undefined;
  });
  const secret = tools.seat.newSecret().reveal();
  return {
    url: `http://127.0.0.1:${INSIDE_TOOL_PROXY_PORT}/_link/s/${secret}/`,
    servers: [...tools.seat.servers],
    ...(tools.relayed ? {} : { socket: `${insideNet}/${TOOL_SOCKET}` }),
    ...(listed ? { listed: [...listed] } : {}),
  };
}

async function writeAndClose(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The sandbox ended first; its status says why.
  }
}
