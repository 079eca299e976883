import { LinkError } from "../core/base/mod.ts";
import { type IpAddress, type IpNetwork, parseNetwork } from "./ip_address.ts";
import type { ProxyPolicy } from "./proxy_policy.ts";
import { hostText, parseTargetHost } from "./target_host.ts";

/** A policy read once, in the forms the checks compare: canonical hosts, "host:port" keys. */
export interface TargetRules {
  readonly anyHost: boolean;
  readonly hosts: ReadonlySet<string>;
  /** ".example.com" for each "*.example.com". */
  readonly suffixes: readonly string[];
  /** "host:port" for each tcp grant and each lan host with a port. */
  readonly endpoints: ReadonlySet<string>;
  readonly lanHosts: ReadonlySet<string>;
  readonly localhostPorts: ReadonlySet<number>;
  /** This machine's own addresses, never reachable. */
  readonly ownAddresses: readonly IpAddress[];
  /** This machine's networks, reachable only by a lan grant. */
  readonly localNetworks: readonly IpNetwork[];
  /** This machine's names (its host name), refused like localhost. */
  readonly machineNames: readonly string[];
  /** "host:port" of each registry the person named: reached at whatever address it resolves to. */
  readonly registries: ReadonlySet<string>;
}

/** Where this machine is: its interfaces' "address/prefix" and its names. */
export interface MachineView {
  /** Interface addresses with their prefix, as Deno.networkInterfaces() gives `cidr`. */
  readonly localNetworks?: readonly string[];
  readonly machineNames?: readonly string[];
}

/** Reads a policy into rules; throws CONFIG_INVALID for a host that is no host. */
export function compileTargetRules(policy: ProxyPolicy, machine: MachineView = {}): TargetRules {
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of policy.hosts) {
    if (entry === "*") continue;
    if (entry.startsWith("*.")) suffixes.push(`.${canonical(entry.slice(2), entry)}`);
    else hosts.add(canonical(entry, entry));
  }
  const endpoints = new Set(policy.tcp.map((grant) => endpointKey(grant)));
  const lanHosts = new Set<string>();
  for (const entry of policy.lanHosts) {
    const withPort = /^[^:\s]+:\d{1,5}$/.test(entry);
    const host = canonical(withPort ? entry.slice(0, entry.lastIndexOf(":")) : entry, entry);
    lanHosts.add(host);
    if (withPort) endpoints.add(endpointKey(entry));
  }
  const networks = machine.localNetworks?.map((cidr) => parseNetwork(cidr)) ?? interfaceNetworks();
  return {
    anyHost: policy.hosts.includes("*"),
    hosts,
    suffixes,
    endpoints,
    lanHosts,
    localhostPorts: new Set(policy.localhostPorts),
    ownAddresses: networks.map((n) => n.ip),
    localNetworks: networks.filter((n) => n.prefix > 0),
    machineNames: (machine.machineNames ?? machineHostNames()).map((n) => n.toLowerCase()),
    registries: new Set((policy.registries ?? []).map((entry) => endpointKey(entry))),
  };
}

/** The "host:port" key of an endpoint, its host canonical. */
export function endpointKey(entry: string): string {
  const at = entry.lastIndexOf(":");
  return `${canonical(entry.slice(0, at), entry)}:${Number(entry.slice(at + 1))}`;
}

function canonical(host: string, entry: string): string {
  const parsed = parseTargetHost(host);
  if (!parsed) {
    throw new LinkError("CONFIG_INVALID", `Cannot start the proxy: "${entry}" is not a host`, {
      hint: "Fix the host in the agent's Config/sandbox.toml, then start the agent again",
    });
  }
  return hostText(parsed);
}

function interfaceNetworks(): IpNetwork[] {
  let cidrs: string[];
  try {
    cidrs = Deno.networkInterfaces().map((i) => i.cidr);
  } catch {
    return [];
  }
  return cidrs.flatMap((cidr) => {
    try {
      return [parseNetwork(cidr.replace(/%[^/]*/, ""))];
    } catch {
      return [];
    }
  });
}

function machineHostNames(): string[] {
  try {
    return [Deno.hostname()];
  } catch {
    return [];
  }
}
