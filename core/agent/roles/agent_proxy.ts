import { join } from "node:path";
import { logger } from "../../base/mod.ts";
import {
  newProxySecret,
  proxyBaseUrl,
  proxyEnv,
  type ProxyKey,
  proxyPolicyFrom,
  type ProxyServer,
  proxyUrl,
  serveProxy,
  type ServeProxyOptions,
} from "../../../proxy/mod.ts";
import { INSIDE_PROXY_PORT, type SandboxSpec } from "../../../sandbox/mod.ts";

const log = logger("agent");

/** How the agent's proxy reaches upstream: the internet, unless a test points it at loopback fakes. */
export type ProxyUpstream = Partial<
  Pick<ServeProxyOptions, "dial" | "resolve" | "startTls" | "localNetworks" | "machineNames">
>;

/** The agent's proxy, running in the process that starts the sandbox (the bridge), and how the sandbox reaches it. */
export interface AgentProxy extends AsyncDisposable {
  /** `~/.lnk/agents/.net/<id>/proxy.sock`, relayed to 127.0.0.1:3128 inside. */
  readonly socket: string;
  readonly server: ProxyServer;
  /** The base-URL form's root inside, `http://127.0.0.1:3128/_link/s/<secret>/` (web_fetch). */
  readonly root: string;
  /** The variables a program inside uses it with: HTTP_PROXY and the rest. */
  readonly env: Readonly<Record<string, string>>;
  /** Where a URL is reached from inside: its base-URL form (SBX-19). */
  baseUrlFor(target: string): string;
}

/** What the agent's proxy is started with besides its grants. */
export interface AgentProxyOptions {
  /** The hosted model's key it adds (SBX-16): `modelKeysFor`'s, empty unless wired. */
  readonly keys: readonly ProxyKey[];
  readonly signal?: AbortSignal;
  readonly upstream?: ProxyUpstream;
}

/**
 * Starts the agent's proxy (SBX-7..19) on `<netDir>/proxy.sock` with a new secret for this start
 * (SBX-19), the hosts, endpoints and LAN hosts of the agent's grants (SBX-11, SBX-12) and the
 * model key it adds in place of the placeholder (SBX-16). The sandbox reaches it at
 * 127.0.0.1:3128 through a relay.
 */
export async function startAgentProxy(
  netDir: string,
  spec: SandboxSpec,
  options: AgentProxyOptions,
): Promise<AgentProxy> {
  const secret = newProxySecret();
  const socket = join(netDir, "proxy.sock");
  const server = await serveProxy({
    ...options.upstream,
    path: socket,
    policy: proxyPolicyFrom(spec),
    keys: options.keys,
    secret,
    hostPort: INSIDE_PROXY_PORT,
    signal: options.signal,
  });
  log.info("Proxy started for the agent", { socket, keys: options.keys.map((k) => k.host) });
  const base = proxyBaseUrl(INSIDE_PROXY_PORT, secret, "http://root.invalid/");
  return {
    socket,
    server,
    root: base.slice(0, base.length - "http/root.invalid/".length),
    env: {
      ...proxyEnv(proxyUrl(INSIDE_PROXY_PORT, secret)),
      // Inside the sandbox's own network its loopback is its own (its relays and ports, GRT-23),
      // so nothing goes out around the proxy there; through the proxy, the base-URL form and a
      // relayed local model would be refused, as the proxy never reaches a loopback.
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
    },
    baseUrlFor: (target) => proxyBaseUrl(INSIDE_PROXY_PORT, secret, target).replace(/\/+$/, ""),
    [Symbol.asyncDispose]: () => server.close(),
  };
}
