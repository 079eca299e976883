/**
 * The uid owning one TCP socket of this machine, asked of the kernel by its addresses (netlink
 * sock_diag, the query `ss` makes): a lookup in the kernel's table, where reading /proc/net/tcp
 * makes the kernel walk all of it (milliseconds, paid per connection). Through the C library
 * (Deno has no netlink), on one socket kept for the process, so a flood that has taken every
 * descriptor never blinds it.
 */

type Libc = {
  symbols: {
    socket: (domain: number, type: number, protocol: number) => number;
    send: (fd: number, buf: Uint8Array, len: bigint, flags: number) => bigint;
    recv: (fd: number, buf: Uint8Array, len: bigint, flags: number) => bigint;
  };
};

const AF_NETLINK = 16;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLM_F_REQUEST = 1;
const NLMSG_ERROR = 2;
const MSG_DONTWAIT = 0x40;
const AF_INET = 2;
const AF_INET6 = 10;
const IPPROTO_TCP = 6;
/** nlmsghdr (16) + inet_diag_req_v2 (56). */
const REQUEST_SIZE = 72;
/** Where inet_diag_msg's idiag_uid sits in a reply: after the nlmsghdr and 64 bytes of the message. */
const UID_AT = 16 + 64;

let libc: Libc | undefined;
let state: { libc: Libc; fd: number } | null | undefined;
let seq = 0;

/**
 * The uid of the socket at `socket` connected to `peer`; undefined when there is none, null when
 * the kernel cannot be asked here (not Linux, no C library, no netlink), so the caller reads
 * /proc/net/tcp instead.
 */
export function socketUid(
  socket: { hostname: string; port: number },
  peer: { hostname: string; port: number },
): number | undefined | null {
  const diag = open();
  if (!diag) return null;
  const v4 = ipv4Bytes(socket.hostname);
  const peerV4 = ipv4Bytes(peer.hostname);
  if (!v4 || !peerV4) return null;
  // A peer's socket made as IPv6 holds the IPv4 address mapped.
  return ask(diag, AF_INET, socket.port, peer.port, v4, peerV4) ??
    ask(diag, AF_INET6, socket.port, peer.port, mapped(v4), mapped(peerV4));
}

function ask(
  diag: { libc: Libc; fd: number },
  family: number,
  sport: number,
  dport: number,
  src: Uint8Array,
  dst: Uint8Array,
): number | undefined {
  const request = new Uint8Array(REQUEST_SIZE);
  const view = new DataView(request.buffer);
  view.setUint32(0, REQUEST_SIZE, true);
  view.setUint16(4, SOCK_DIAG_BY_FAMILY, true);
  view.setUint16(6, NLM_F_REQUEST, true);
  view.setUint32(8, ++seq, true);
  request[16] = family;
  request[17] = IPPROTO_TCP;
  view.setUint32(20, 0xffffffff, true); // every state
  view.setUint16(24, sport, false);
  view.setUint16(26, dport, false);
  request.set(src, 28);
  request.set(dst, 44);
  view.setUint32(64, 0xffffffff, true); // INET_DIAG_NOCOOKIE
  view.setUint32(68, 0xffffffff, true);
  const { send, recv } = diag.libc.symbols;
  if (send(diag.fd, request, BigInt(REQUEST_SIZE), 0) !== BigInt(REQUEST_SIZE)) return undefined;
  // The kernel answers within send: the reply is there already, after any left from an earlier ask.
  const reply = new Uint8Array(1024);
  const answer = new DataView(reply.buffer);
  for (let tries = 0; tries < 8; tries++) {
    const got = Number(recv(diag.fd, reply, BigInt(reply.length), MSG_DONTWAIT));
    if (got < 16) return undefined;
    if (answer.getUint32(8, true) !== seq) continue;
    if (got < UID_AT + 4 || answer.getUint16(4, true) === NLMSG_ERROR) return undefined;
    return answer.getUint32(UID_AT, true);
  }
  return undefined;
}

function open(): { libc: Libc; fd: number } | null {
  if (state !== undefined) return state;
  if (Deno.build.os !== "linux") return state = null;
  try {
    libc ??= Deno.dlopen("libc.so.6", {
      socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
      send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
      recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
    }) as unknown as Libc;
  } catch {
    // No C library to call, or no permission to: /proc/net/tcp it is.
    return state = null;
  }
  const fd = libc.symbols.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  // No descriptor free at the first ask (a flood): asked again next time.
  if (fd < 0) return null;
  return state = { libc, fd };
}

function ipv4Bytes(host: string): Uint8Array | undefined {
  const parts = host.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  const bytes = new Uint8Array(16);
  bytes.set(parts);
  return bytes;
}

function mapped(v4: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes.set(v4.subarray(0, 4), 12);
  return bytes;
}
