import { LinkError } from "../../base/mod.ts";
import {
  checkUserNamespaces,
  INSIDE_PROXY_PORT,
  planSandbox,
  portRelayRules,
  type ProxyUpstream,
  relayPortsIn,
  type RelayRule,
  requireUserNamespaces,
  resolveSandboxInput,
  runSandboxed,
  type RunSandboxedOptions,
  type SandboxPlan,
  type SandboxProcess,
  type SandboxStdin,
  type SandboxStdout,
  startSandboxProxy,
  wantsProxy,
} from "../../../sandbox/mod.ts";
import type { LocalServer } from "../../harness/model/mod.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { type HarnessPolicy, harnessPolicy, policySandboxFields } from "./harness_policy.ts";
import { type ModelWiring, modelWiring } from "./model_keys.ts";

/** How a sandbox like the harness's is started, and what of this machine it reaches in tests. */
export interface HarnessSandboxOptions {
  readonly command: readonly string[];
  /** Variables the caller chose to pass (TERM, LANG); nothing else of its environment goes in. */
  readonly env?: Readonly<Record<string, string>>;
  readonly stdin?: SandboxStdin;
  readonly stdout?: SandboxStdout;
  readonly stderr?: SandboxStdout;
  readonly signal?: AbortSignal;
  /** The relay role's command line inside; `lnk sandbox relay` unless told. */
  readonly launcher?: readonly string[];
  /** How the proxy reaches upstream: tests point it at loopback fakes. */
  readonly proxy?: ProxyUpstream;
  /**
   * Whose view of the agent's folders: the harness's (unless told), or its tools' and run's
   * commands', where chats/ is never writable even for Link Harness (LAY-7).
   */
  readonly view?: "harness" | "tools";
  /** The local model servers probed to pick the model; Link's list unless told. */
  readonly modelCandidates?: readonly LocalServer[];
  /** Where its limits are held instead of this machine's cgroups (tests). */
  readonly limits?: RunSandboxedOptions["limits"];
}

/** A running sandbox like the harness's, with its own proxy and socket folder, removed at dispose. */
export interface HarnessSandbox extends AsyncDisposable {
  readonly policy: HarnessPolicy;
  readonly wiring: ModelWiring;
  readonly plan: SandboxPlan;
  readonly process: SandboxProcess;
  /** Its own socket folder under `~/.lnk/agents/.net/`, never the running agent's. */
  readonly netDir: string;
  /** Settles with the program's exit status. */
  readonly status: Promise<Deno.CommandStatus>;
}

/**
 * Starts a program in a sandbox built as the harness's is (SBX-6, SBX-10): the harness's policy
 * (both grant layers, its folders, its home), a fresh proxy of its own with the agent's hosts and
 * model key (SBX-16), reached inside at 127.0.0.1:3128, and [localhost] ports relayed in. It never
 * enters or touches a running agent's sandbox, proxy or sockets, so it works whether or not the
 * agent runs. An agent whose sandbox is off is refused: there is no policy to run under.
 */
export async function startHarnessSandbox(
  ctx: AgentContext,
  agent: AgentSettings,
  options: HarnessSandboxOptions,
): Promise<HarnessSandbox> {
  if (!agent.sandbox.enabled) {
    throw new LinkError(
      "SANDBOX_REFUSED",
      `Cannot run in the sandbox of agent "${agent.name}": its sandbox is off`,
      {
        hint: "Turn it back on with `lnk agent start --sandbox`, then run this again",
      },
    );
  }
  const policy = await harnessPolicy(ctx, agent);
  const wiring = await modelWiring(agent, { env: ctx.env, candidates: options.modelCandidates });
  requireUserNamespaces(await checkUserNamespaces());
  await using stack = new AsyncDisposableStack();
  await Deno.mkdir(ctx.paths.netRoot, { recursive: true, mode: 0o700 });
  const netDir = await Deno.makeTempDir({ dir: ctx.paths.netRoot, prefix: "run-" });
  stack.defer(() => Deno.remove(netDir, { recursive: true }).catch(() => {}));
  const relays: RelayRule[] = [];
  let env: Record<string, string> = { ...options.env, ...wiring.env };
  if (wantsProxy(policy.spec)) {
    const proxy = stack.use(
      await startSandboxProxy(netDir, policy.spec, {
        keys: wiring.keys,
        signal: options.signal,
        upstream: options.proxy,
      }),
    );
    relays.push({ kind: "tcp-to-unix", port: INSIDE_PROXY_PORT, socket: proxy.socket });
    env = { ...env, ...proxy.env };
  }
  const ports = policy.spec.network.mode === "proxy" ? policy.spec.localhost.ports : [];
  stack.use(await relayPortsIn(netDir, ports, { signal: options.signal }));
  relays.push(...portRelayRules(netDir, ports));
  const plan = planSandbox(
    await resolveSandboxInput({
      spec: policy.spec,
      source: policy.source,
      paths: ctx.paths,
      ...policySandboxFields(policy),
      // The tools' view: what the harness itself writes in Agent/ is not theirs (LAY-7).
      ...(options.view === "tools" ? { harnessWritesChats: false, harnessWritesNotes: false } : {}),
      netDir,
      command: options.command,
      env,
      relays,
      launcher: options.launcher,
    }),
  );
  const process = stack.use(
    await runSandboxed(plan, {
      stdin: options.stdin,
      stdout: options.stdout,
      stderr: options.stderr,
      signal: options.signal,
      limits: options.limits,
      agent: agent.id,
    }),
  );
  const owned = stack.move();
  return {
    policy,
    wiring,
    plan,
    process,
    netDir,
    status: process.status,
    [Symbol.asyncDispose]: () => owned.disposeAsync(),
  };
}
