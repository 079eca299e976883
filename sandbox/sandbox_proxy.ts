import { join } from "node:path";
import { logger } from "../core/base/mod.ts";
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
} from "../proxy/mod.ts";
import type { SandboxSpec } from "../core/spec/mod.ts";

const log = logger("sandbox");

/** Where the proxy answers inside a sandbox, on its own loopback. */
export const INSIDE_PROXY_PORT = 3128;

/** Where the tool proxy (SBX-18) answers inside a sandbox, relayed to `.net/<id>/tools.sock` outside. */
export const INSIDE_TOOL_PROXY_PORT = 3129;

/** How a sandbox's proxy reaches upstream: the internet, unless a test points it at loopback fakes. */
export type ProxyUpstream = Partial<
  Pick<ServeProxyOptions, "dial" | "resolve" | "startTls" | "localNetworks" | "machineNames">
>;

/** A sandbox's proxy, running outside it, and how a program inside reaches it. */
export interface SandboxProxy extends AsyncDisposable {
  /** `<netDir>/proxy.sock`, relayed to 127.0.0.1:3128 inside. */
  readonly socket: string;
  readonly server: ProxyServer;
  /** The base-URL form's root inside, `http://127.0.0.1:3128/_link/s/<secret>/` (web_fetch). */
  readonly root: string;
  /** The variables a program inside uses it with: HTTP_PROXY and the rest. */
  readonly env: Readonly<Record<string, string>>;
  /** Where a URL is reached from inside: its base-URL form (SBX-19). */
  baseUrlFor(target: string): string;
}

/** What a sandbox's proxy is started with besides its grants. */
export interface SandboxProxyOptions {
  /** A hosted model's key it adds in place of the placeholder (SBX-16); none unless wired. */
  readonly keys?: readonly ProxyKey[];
  readonly signal?: AbortSignal;
  readonly upstream?: ProxyUpstream;
  /**
   * The port it answers on inside, 3128 unless told: a shared harness's sandbox holds several
   * agents' proxies, each on its agent's own port (PRC-2).
   */
  readonly insidePort?: number;
  /** The person's own registries ("host:port") it reaches wherever they resolve: an install step's alone. */
  readonly registries?: readonly string[];
}

/** Whether anything may go out through a proxy: hosts, raw TCP endpoints or LAN hosts, in proxy mode. */
export function wantsProxy(spec: SandboxSpec): boolean {
  if (spec.network.mode !== "proxy") return false;
  return spec.internet.hosts.length + spec.internet.tcp.length + spec.lan.hosts.length > 0;
}

/**
 * Starts a sandbox's proxy (SBX-7..19) on `<netDir>/proxy.sock` with a new secret for this start
 * (SBX-19), the hosts, endpoints and LAN hosts of the spec (SBX-11, SBX-12) and the model key it
 * adds (SBX-16). The sandbox reaches it at 127.0.0.1:3128 through a relay.
 */
export async function startSandboxProxy(
  netDir: string,
  spec: SandboxSpec,
  options: SandboxProxyOptions = {},
): Promise<SandboxProxy> {
  const secret = newProxySecret();
  const socket = join(netDir, "proxy.sock");
  const keys = options.keys ?? [];
  const port = options.insidePort ?? INSIDE_PROXY_PORT;
  const server = await serveProxy({
    ...options.upstream,
    path: socket,
    policy: { ...proxyPolicyFrom(spec), registries: [...(options.registries ?? [])] },
    keys,
    secret,
    hostPort: port,
    signal: options.signal,
  });
  log.info("Proxy started for a sandbox", { socket, keys: keys.map((k) => k.host) });
  const base = proxyBaseUrl(port, secret, "http://root.invalid/");
  return {
    socket,
    server,
    root: base.slice(0, base.length - "http/root.invalid/".length),
    env: {
      ...proxyEnv(proxyUrl(port, secret)),
      // Inside the sandbox's own network its loopback is its own (its relays and ports, GRT-23),
      // so nothing goes out around the proxy there; through the proxy, the base-URL form and a
      // relayed port would be refused, as the proxy never reaches a loopback.
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
    },
    baseUrlFor: (target) => proxyBaseUrl(port, secret, target).replace(/\/+$/, ""),
    [Symbol.asyncDispose]: () => server.close(),
  };
}
