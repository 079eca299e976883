import { embeddedIpv4, inNetwork, type IpAddress, type IpNetwork, parseNetwork } from "./ip_address.ts";

/**
 * What an address is to the proxy: public (the internet), lan (private networks, reachable only
 * by a `[lan]` grant), loopback (this machine, only by a `[localhost]` port grant), or forbidden.
 */
export type AddressKind = "public" | "lan" | "loopback" | "forbidden";

/** An address's kind, the range it fell in, and the address to dial for it. */
export interface AddressRange {
  readonly kind: AddressKind;
  /** Names the range, for refusals: "loopback", "private (RFC 1918)", ... */
  readonly range: string;
  /** The address to dial: an IPv4-mapped IPv6 address dials its IPv4 address. */
  readonly dial: IpAddress;
}

type Row = readonly [network: IpNetwork, kind: AddressKind, range: string];
const row = (cidr: string, kind: AddressKind, range: string): Row => [parseNetwork(cidr), kind, range];

// First match wins, so narrower rows come before wider ones.
const IPV4: readonly Row[] = [
  row("0.0.0.0/8", "forbidden", "this network (0.0.0.0/8)"),
  row("10.0.0.0/8", "lan", "private (RFC 1918)"),
  row("100.64.0.0/10", "lan", "shared address space (CGNAT)"),
  row("127.0.0.0/8", "loopback", "loopback"),
  row("169.254.0.0/16", "forbidden", "link-local"),
  row("172.16.0.0/12", "lan", "private (RFC 1918)"),
  row("192.0.0.0/24", "forbidden", "IETF protocol assignments"),
  row("192.0.2.0/24", "forbidden", "documentation (TEST-NET-1)"),
  row("192.88.99.0/24", "forbidden", "6to4 relay anycast"),
  row("192.168.0.0/16", "lan", "private (RFC 1918)"),
  row("198.18.0.0/15", "forbidden", "benchmarking"),
  row("198.51.100.0/24", "forbidden", "documentation (TEST-NET-2)"),
  row("203.0.113.0/24", "forbidden", "documentation (TEST-NET-3)"),
  row("224.0.0.0/4", "forbidden", "multicast"),
  row("255.255.255.255/32", "forbidden", "broadcast"),
  row("240.0.0.0/4", "forbidden", "reserved (240.0.0.0/4)"),
];

const IPV4_MAPPED = parseNetwork("::ffff:0:0/96");
const NAT64 = parseNetwork("64:ff9b::/96");
const GLOBAL_UNICAST = parseNetwork("2000::/3");

const IPV6: readonly Row[] = [
  row("::/128", "forbidden", "unspecified (::)"),
  row("::1/128", "loopback", "loopback"),
  row("::/96", "forbidden", "IPv4-compatible (deprecated)"),
  row("::ffff:0:0:0/96", "forbidden", "IPv4-translated"),
  row("64:ff9b:1::/48", "forbidden", "local-use NAT64"),
  row("100::/64", "forbidden", "discard-only"),
  row("2001:db8::/32", "forbidden", "documentation"),
  row("2001::/23", "forbidden", "IETF protocol assignments (Teredo, ORCHID)"),
  row("2002::/16", "forbidden", "6to4"),
  row("3fff::/20", "forbidden", "documentation"),
  row("5f00::/16", "forbidden", "SRv6"),
  row("fc00::/7", "lan", "unique local (ULA)"),
  row("fe80::/10", "forbidden", "link-local"),
  row("fec0::/10", "forbidden", "site-local (deprecated)"),
  row("ff00::/8", "forbidden", "multicast"),
];

/** Classifies an address, whatever family it is written in. */
export function classifyAddress(ip: IpAddress): AddressRange {
  if (ip.version === 4) return lookup(ip, IPV4, ip);
  if (inNetwork(ip, IPV4_MAPPED)) return lookup(embeddedIpv4(ip), IPV4, embeddedIpv4(ip));
  if (inNetwork(ip, NAT64)) {
    // NAT64 reaches the IPv4 address it embeds: judge that address, but dial the IPv6 one.
    const inner = lookup(embeddedIpv4(ip), IPV4, ip);
    return inner.kind === "public"
      ? inner
      : { kind: "forbidden", range: `NAT64 of ${inner.range}`, dial: ip };
  }
  const found = lookup(ip, IPV6, ip);
  if (found.kind === "public" && !inNetwork(ip, GLOBAL_UNICAST)) {
    return { kind: "forbidden", range: "reserved (outside 2000::/3)", dial: ip };
  }
  return found;
}

function lookup(ip: IpAddress, rows: readonly Row[], dial: IpAddress): AddressRange {
  for (const [network, kind, range] of rows) {
    if (inNetwork(ip, network)) return { kind, range, dial };
  }
  return { kind: "public", range: "public", dial };
}
