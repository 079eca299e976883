import { LinkError, type LinkPaths, readTextIfExists } from "../core/base/mod.ts";
import { DEFAULT_SANDBOX_TOML, parseSandboxSpec } from "../core/spec/mod.ts";
import { applyGrants } from "./apply_grants.ts";
import type { GrantFlags } from "./grant_flags.ts";
import { planSandbox } from "./plan_sandbox.ts";
import { resolveSandboxInput } from "./resolve_sandbox.ts";
import { runSandboxed, type SandboxStdin, type SandboxStdout } from "./run_sandboxed.ts";
import type { RelayRule } from "./relay_rule.ts";
import { RUN_IDENTITY, runsAsRoot } from "../core/spec/mod.ts";
import { portRelayRules, relayPortsIn } from "./port_relays.ts";
import { INSIDE_PROXY_PORT, type ProxyUpstream, startSandboxProxy, wantsProxy } from "./sandbox_proxy.ts";
import {
  checkUserNamespaces,
  offerBwrapProfile,
  type ProfileConsent,
  requireUserNamespaces,
} from "./user_namespaces.ts";

/** What `lnk sandbox run` needs. */
export interface SandboxRunOptions {
  readonly paths: LinkPaths;
  /** The spec file; the defaults a new agent gets when none. */
  readonly specPath?: string;
  /** Grant flags on top of the spec, as `lnk agent allow` takes them (GRT-4). */
  readonly grants?: GrantFlags;
  readonly command: readonly string[];
  /** Variables the caller chose to pass (TERM, LANG); nothing else of its environment goes in. */
  readonly env?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** The program's streams: this process's own, relayed through pipes, unless told. */
  readonly stdin?: SandboxStdin;
  readonly stdout?: SandboxStdout;
  readonly stderr?: SandboxStdout;
  /** Asks to install the AppArmor profile when needed (SBX-3); without it such a start fails. */
  readonly consent?: ProfileConsent;
  /** The relay role's command line inside; `lnk sandbox relay` unless told. */
  readonly launcher?: readonly string[];
  readonly notes?: (text: string) => void;
  /** How the proxy reaches upstream: tests point it at loopback fakes. */
  readonly proxy?: ProxyUpstream;
}

/**
 * Runs one program under a sandbox spec (GRT-4, SBX-6): a proxy of its own for [internet] in
 * proxy mode, reached inside at 127.0.0.1:3128 through a relay and named in HTTP_PROXY and the
 * rest; [localhost] ports relayed in; a home and a socket folder of its own, removed after.
 * Returns the program's exit code.
 */
export async function sandboxRun(options: SandboxRunOptions): Promise<number> {
  const { spec, source } = await readSpec(options);
  const found = await checkUserNamespaces();
  if (options.consent) await offerBwrapProfile(found, options.consent);
  else requireUserNamespaces(found);
  await using stack = new AsyncDisposableStack();
  const harnessHome = await Deno.makeTempDir({ prefix: "lnk-sandbox-" });
  stack.defer(() => Deno.remove(harnessHome, { recursive: true }).catch(() => {}));
  await Deno.mkdir(options.paths.netRoot, { recursive: true, mode: 0o700 });
  const netDir = await Deno.makeTempDir({ dir: options.paths.netRoot, prefix: "run-" });
  stack.defer(() => Deno.remove(netDir, { recursive: true }).catch(() => {}));
  const relays: RelayRule[] = [];
  let env: Record<string, string> = { ...options.env };
  if (wantsProxy(spec)) {
    const proxy = stack.use(
      await startSandboxProxy(netDir, spec, { signal: options.signal, upstream: options.proxy }),
    );
    relays.push({ kind: "tcp-to-unix", port: INSIDE_PROXY_PORT, socket: proxy.socket });
    env = { ...env, ...proxy.env };
  }
  // With the network as it is (host mode) the ports are there already, unrelayed.
  const ports = spec.network.mode === "proxy" ? spec.localhost.ports : [];
  stack.use(await relayPortsIn(netDir, ports, { signal: options.signal }));
  relays.push(...portRelayRules(netDir, ports));
  const input = await resolveSandboxInput({
    spec,
    source,
    paths: options.paths,
    harnessHome,
    netDir,
    command: options.command,
    env,
    relays,
    launcher: options.launcher,
    // As root, a program run this way is the uid Link keeps for runs no agent holds.
    identity: runsAsRoot() ? RUN_IDENTITY : undefined,
  });
  const plan = planSandbox(input);
  for (const notice of plan.notices) options.notes?.(notice);
  const sandbox = await runSandboxed(plan, {
    stdin: options.stdin ?? "relay",
    stdout: options.stdout ?? "relay",
    stderr: options.stderr ?? "relay",
    signal: options.signal,
  });
  stack.use(sandbox);
  return (await sandbox.status).code;
}

async function readSpec(options: SandboxRunOptions) {
  const path = options.specPath ?? "(defaults)";
  const text = options.specPath === undefined
    ? DEFAULT_SANDBOX_TOML
    : (await readTextIfExists(options.specPath)) ?? missing(options.specPath);
  const parsed = parseSandboxSpec(text, path);
  const spec = options.grants ? applyGrants(parsed, options.grants, "allow").spec : parsed;
  return { spec, source: { path, text } };
}

function missing(path: string): never {
  throw new LinkError("CONFIG_INVALID", `Cannot read the sandbox spec "${path}": there is no such file`, {
    hint: "Give the path of a sandbox file, such as an agent's Config/sandbox.toml",
  });
}
