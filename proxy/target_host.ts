import { formatIp, type IpAddress, parseIpv4, parseIpv6 } from "./ip_address.ts";

/** A host as the proxy judges it: an address (however it was spelled) or a lowercase DNS name. */
export type TargetHost =
  | { readonly kind: "ip"; readonly ip: IpAddress; readonly text: string }
  | { readonly kind: "name"; readonly name: string };

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Reads a host the way resolvers and browsers would, so no spelling slips past the checks:
 * brackets, a trailing dot and case are dropped; every IPv4 spelling ("127.1", "2130706433",
 * "0x7f.1", "0177.0.0.1") becomes its address; IPv6 with an IPv4 tail is read; a name with a
 * numeric last label, a zone ("%eth0"), percent signs or other stray characters is no host.
 * International names become their ASCII (punycode) form. Returns undefined when it is no host.
 */
export function parseTargetHost(raw: string): TargetHost | undefined {
  let host = raw.trim();
  if (host.startsWith("[") || host.endsWith("]")) {
    if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
    const ip = parseIpv6(host.slice(1, -1));
    return ip && { kind: "ip", ip, text: formatIp(ip) };
  }
  if (host.includes(":")) {
    const ip = parseIpv6(host);
    return ip && { kind: "ip", ip, text: formatIp(ip) };
  }
  host = host.toLowerCase();
  if (!/^[\x21-\x7e]*$/.test(host)) host = toAscii(host) ?? "";
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "" || host.length > 253) return undefined;
  const v4 = parseIpv4(host);
  if (v4 === null) return undefined;
  if (v4) return { kind: "ip", ip: v4, text: formatIp(v4) };
  return host.split(".").every((label) => LABEL.test(label)) ? { kind: "name", name: host } : undefined;
}

function toAscii(host: string): string | undefined {
  if (/[\s/?#@:%\\[\]]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
}

/** The host's text as it is matched against grants and written in refusals. */
export function hostText(host: TargetHost): string {
  return host.kind === "ip" ? host.text : host.name;
}

/**
 * Names that are this machine whatever DNS says: localhost and its subdomains (RFC 6761), the
 * loopback names Debian puts in /etc/hosts, and the machine's own host name.
 */
export function isLocalhostName(name: string, machineNames: readonly string[] = []): boolean {
  return name === "localhost" || name.endsWith(".localhost") ||
    ["localhost.localdomain", "ip6-localhost", "ip6-loopback", "localhost6", "localhost6.localdomain6"]
      .includes(name) ||
    machineNames.includes(name);
}
