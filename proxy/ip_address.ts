/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: Uint8Array;
}

const IPV4_PART = /^(0x[0-9a-f]*|[0-9]+)$/i;

/**
 * Reads an IPv4 address in every spelling the C library's inet_aton and WHATWG URLs accept:
 * one to four parts, each decimal, octal (leading 0) or hex (0x), the last filling the bytes left
 * ("127.1", "2130706433", "0x7f.1", "0177.0.0.1"), with one trailing dot. Returns undefined when
 * the text is not numeric at all, and null when it looks numeric but is no valid address.
 */
export function parseIpv4(text: string): IpAddress | undefined | null {
  const parts = (text.endsWith(".") ? text.slice(0, -1) : text).split(".");
  if (parts.length === 0 || parts.length > 4 || !parts.every((p) => IPV4_PART.test(p))) {
    // A name whose last label is a number is no name: browsers treat it as an address attempt.
    return IPV4_PART.test(parts.at(-1) ?? "") ? null : undefined;
  }
  const values: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === undefined) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return null;
  const bytes = new Uint8Array(4);
  values.forEach((v, i) => (bytes[i] = v));
  for (let i = 3, rest = last; i >= values.length; i--, rest = Math.floor(rest / 256)) bytes[i] = rest % 256;
  return { version: 4, bytes };
}

function parsePart(part: string): number | undefined {
  let value: number;
  if (/^0x/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  else if (part.length > 1 && part.startsWith("0")) {
    if (!/^[0-7]+$/.test(part)) return undefined;
    value = parseInt(part, 8);
  } else value = parseInt(part, 10);
  return Number.isSafeInteger(value) && value <= 0xffffffff ? value : undefined;
}

/** Reads an IPv6 address (without brackets or zone), including a dotted IPv4 tail. */
export function parseIpv6(text: string): IpAddress | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = parseWords(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parseWords(halves[1]!, true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const bytes = new Uint8Array(16);
  [...head, ...new Array<number>(missing).fill(0), ...tail].forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return { version: 6, bytes };
}

function parseWords(part: string, dottedTail: boolean): number[] | undefined {
  if (part === "") return [];
  const groups = part.split(":");
  const words: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (/^[0-9a-f]{1,4}$/i.test(group)) {
      words.push(parseInt(group, 16));
      continue;
    }
    const v4 =
      dottedTail && i === groups.length - 1 && /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(group)
        ? parseIpv4(group)
        : undefined;
    if (!v4) return undefined;
    words.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
  }
  return words;
}

/** The address in its usual text: dotted IPv4, or RFC 5952 IPv6 (lowercase, longest zero run as "::"). */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return [...ip.bytes].join(".");
  const words = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!);
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

/** A network as an address and a prefix length, such as 10.0.0.0/8. */
export interface IpNetwork {
  readonly ip: IpAddress;
  readonly prefix: number;
}

/** Reads "address/prefix"; throws on anything else (only Link's own tables and interfaces use it). */
export function parseNetwork(cidr: string): IpNetwork {
  const [address = "", prefixText = ""] = cidr.split("/");
  const ip = address.includes(":") ? parseIpv6(address) : parseIpv4(address);
  const prefix = Number(prefixText);
  if (!ip || !/^\d+$/.test(prefixText) || prefix > ip.bytes.length * 8) {
    throw new Error(`"${cidr}" is not a network`);
  }
  return { ip, prefix };
}

/** Tells whether the address lies in the network (same family only). */
export function inNetwork(ip: IpAddress, network: IpNetwork): boolean {
  if (ip.version !== network.ip.version) return false;
  for (let bit = 0; bit < network.prefix; bit += 8) {
    const bits = Math.min(8, network.prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if ((ip.bytes[bit / 8]! & mask) !== (network.ip.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** The IPv4 address held in the last four bytes of an IPv6 one (mapped, NAT64, compatible). */
export function embeddedIpv4(ip: IpAddress): IpAddress {
  return { version: 4, bytes: ip.bytes.slice(12, 16) };
}
