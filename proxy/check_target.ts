import { classifyAddress } from "./address_range.ts";
import { formatIp, inNetwork, type IpAddress, parseIpv4, parseIpv6 } from "./ip_address.ts";
import type { Refusal, RefusalReason } from "./refusal.ts";
import { hostText, isLocalhostName, parseTargetHost } from "./target_host.ts";
import type { TargetRules } from "./target_rules.ts";

/** Where an allowed request goes: the host it named, and the checked address to dial. */
export interface Route {
  /** The host as named (canonical): for TLS's server name and the Host header. */
  readonly host: string;
  /** The checked address: the only one ever dialled for this request. */
  readonly address: string;
  readonly port: number;
}

/** The proxy's answer for one target. */
export type Decision = { readonly ok: true; readonly route: Route } | {
  readonly ok: false;
  readonly refusal: Refusal;
};

/** Resolves a DNS name to its addresses (A and AAAA). */
export type Resolve = (name: string) => Promise<string[]>;

const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

/**
 * Decides whether the proxy may reach `host:port` (SBX-7..12, GRT-14). A name outside the grants
 * is refused before it is resolved; a granted name is resolved once, every address it has is
 * checked, and the first is returned to be dialled, so a second lookup can never swap in another.
 * This machine, its networks, loopback, link-local, private and special ranges are refused in any
 * spelling, except a `[localhost]` port on loopback and `[lan]` hosts on private networks.
 */
export async function checkTarget(
  rules: TargetRules,
  rawHost: string,
  port: number,
  resolve: Resolve,
): Promise<Decision> {
  const host = parseTargetHost(rawHost);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    return refuse("invalid-host", `Cannot reach "${printable(rawHost)}:${port}": it is not a host and port`);
  }
  const name = hostText(host);
  const where = `${name.includes(":") ? `[${name}]` : name}:${port}`;
  if (rules.registries.has(`${name}:${port}`)) return await registryRoute(host, name, port, where, resolve);
  if (host.kind === "name" && isLocalhostName(host.name, rules.machineNames)) {
    if (rules.localhostPorts.has(port)) return allow(name, "127.0.0.1", port);
    return refuse("name-forbidden", `Cannot reach "${where}": "${name}" is this machine`, portHint(port));
  }
  const lan = rules.lanHosts.has(name);
  if (host.kind === "ip") {
    const judged = judgeAddress(rules, host.ip, { where, port, lan, viaName: false });
    if (!judged.ok || judged.loopback) return judged.ok ? allow(name, judged.address, port) : judged;
    return grantRefusal(rules, name, port, lan, where) ?? allow(name, judged.address, port);
  }
  const refused = grantRefusal(rules, name, port, lan, where);
  if (refused) return refused;
  const answers = await resolveOnce(name, where, resolve);
  if (!Array.isArray(answers)) return answers;
  let first: string | undefined;
  for (const answer of answers) {
    const ip = answer.includes(":") ? parseIpv6(answer) : parseIpv4(answer);
    if (!ip) return refuse("resolve-failed", `Cannot reach "${where}": its name resolved to "${answer}"`);
    const judged = judgeAddress(rules, ip, { where, port, lan, viaName: true });
    if (!judged.ok) return judged;
    first ??= judged.address;
  }
  if (first === undefined) {
    return refuse("resolve-failed", `Cannot reach "${where}": its name has no address`);
  }
  return allow(name, first, port);
}

/**
 * A registry the person named, by exact host and port: reached at the address it resolves to, private,
 * reserved or this machine's, since a mirror lives where the person put it. Resolved once, as any name.
 */
async function registryRoute(
  host: NonNullable<ReturnType<typeof parseTargetHost>>,
  name: string,
  port: number,
  where: string,
  resolve: Resolve,
): Promise<Decision> {
  if (host.kind === "ip") return allow(name, formatIp(classifyAddress(host.ip).dial), port);
  const answers = await resolveOnce(name, where, resolve);
  if (!Array.isArray(answers)) return answers;
  const first = answers[0];
  const ip = first === undefined ? undefined : first.includes(":") ? parseIpv6(first) : parseIpv4(first);
  if (!ip) return refuse("resolve-failed", `Cannot reach "${where}": its name has no address`);
  return allow(name, formatIp(classifyAddress(ip).dial), port);
}

/** A name's addresses, resolved once, or the refusal when it does not resolve. */
async function resolveOnce(name: string, where: string, resolve: Resolve): Promise<string[] | Decision> {
  try {
    return await resolve(name);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return refuse("resolve-failed", `Cannot reach "${where}": its name did not resolve: ${why}`);
  }
}

interface Context {
  readonly where: string;
  readonly port: number;
  readonly lan: boolean;
  readonly viaName: boolean;
}

type Judged = { ok: true; address: string; loopback: boolean } | { ok: false; refusal: Refusal };

function judgeAddress(rules: TargetRules, ip: IpAddress, context: Context): Judged {
  const range = classifyAddress(ip);
  const { where, port, lan, viaName } = context;
  const shown = viaName ? `its name resolves to ${formatIp(ip)}, which is` : "it is";
  if (range.kind === "loopback") {
    if (!viaName && rules.localhostPorts.has(port)) {
      return { ok: true, address: formatIp(range.dial), loopback: true };
    }
    return refuse(
      "address-forbidden",
      `Cannot reach "${where}": ${shown} this machine (loopback)`,
      portHint(port),
    );
  }
  if (range.kind === "forbidden") {
    return refuse("address-forbidden", `Cannot reach "${where}": ${shown} ${range.range}`);
  }
  if (rules.ownAddresses.some((own) => sameAddress(own, range.dial) || sameAddress(own, ip))) {
    return refuse("address-forbidden", `Cannot reach "${where}": ${shown} this machine's own address`);
  }
  const local = range.kind === "lan" || rules.localNetworks.some((n) => inNetwork(range.dial, n));
  if (local && !lan) {
    const what = range.kind === "lan" ? range.range : "this machine's network";
    return refuse("address-forbidden", `Cannot reach "${where}": ${shown} on your local network (${what})`, {
      hint: "Run `lnk agent allow --lan-host <host>` to let the agent reach a host of your network",
    });
  }
  return { ok: true, address: formatIp(range.dial), loopback: false };
}

/** Why the grants refuse `name:port`, or undefined when they allow it (SBX-11: a name reaches only its port). */
function grantRefusal(
  rules: TargetRules,
  name: string,
  port: number,
  lan: boolean,
  where: string,
): Decision | undefined {
  if (rules.endpoints.has(`${name}:${port}`)) return undefined;
  const listed = lan || rules.anyHost || rules.hosts.has(name) ||
    rules.suffixes.some((s) => name.endsWith(s));
  if (!listed) {
    return refuse("host-not-allowed", `Cannot reach "${where}": "${name}" is not in the agent's hosts`, {
      hint: `Add "${name}" to [internet] hosts in the agent's Config/sandbox.toml, then restart the agent`,
    });
  }
  if (WEB_PORTS.has(port)) return undefined;
  return refuse("port-not-allowed", `Cannot reach "${where}": only ports 443 and 80 are open to it`, {
    hint: lan ? `Run \`lnk agent allow --lan-host ${where}\`` : `Run \`lnk agent allow --tcp ${where}\``,
  });
}

function portHint(port: number): { hint: string } {
  return { hint: `Run \`lnk agent allow --port ${port}\` to let the agent reach this port of this machine` };
}

function sameAddress(a: IpAddress, b: IpAddress): boolean {
  return a.version === b.version && a.bytes.every((byte, i) => byte === b.bytes[i]);
}

function allow(host: string, address: string, port: number): Decision {
  return { ok: true, route: { host, address, port } };
}

function refuse(
  reason: RefusalReason,
  message: string,
  extra: { hint?: string } = {},
): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { reason, message, ...extra } };
}

/** A host as the caller wrote it, cut short and with control characters dropped, for messages. */
function printable(raw: string): string {
  // deno-lint-ignore no-control-regex
  const clean = raw.replace(/[\x00-\x1f\x7f]/g, "?");
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
