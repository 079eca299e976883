import { closeQuietly } from "../core/base/mod.ts";
import { socketUid } from "./sock_diag.ts";

/**
 * Who connected to a bridge, as far as the operating system says (BRG-6: never which agent,
 * only which user, and only to keep places apart per user, BRG-13).
 *
 * Deno exposes no SO_PEERCRED. For TCP on this machine the kernel names the user who made the
 * peer's socket (sock_diag, as `ss` asks; or the `uid` column of /proc/net/tcp and tcp6): the
 * peer's local address is our remote one and the other way round. For unix sockets there is no sound way to learn the peer
 * from Deno, so a unix bridge's socket must live in a folder only its user may enter (0700,
 * checked when it listens): every caller is then that user or root, and they share one user's
 * places.
 */
export interface BridgePeer {
  /** How the caller connected. */
  transport: "tcp" | "unix";
  /** The caller's user id, when the system tells it. */
  uid: number | undefined;
}

/** The places key for a peer: its uid, or one shared key for peers whose user is unknown. */
export function placesKey(peer: BridgePeer): string {
  return peer.uid === undefined ? "unknown" : `uid:${peer.uid}`;
}

/** The peer of an accepted connection. */
export async function peerOf(conn: Deno.Conn): Promise<BridgePeer> {
  if (conn.localAddr.transport === "unix") return { transport: "unix", uid: Deno.uid() ?? undefined };
  const local = conn.localAddr as Deno.NetAddr;
  const remote = conn.remoteAddr as Deno.NetAddr;
  return { transport: "tcp", uid: await tcpPeerUid(local, remote) };
}

/** A lookup waiting for the next read of the tables. */
interface Lookup {
  local: Deno.NetAddr;
  remote: Deno.NetAddr;
  resolve: (uid: number | undefined) => void;
}

let waiting: Lookup[] = [];
let reading: Promise<void> | undefined;

/**
 * The uid owning the other end of a TCP connection on this machine: asked of the kernel by its
 * addresses (sock_diag, microseconds), else read from /proc/net/tcp{,6}.
 */
export function tcpPeerUid(local: Deno.NetAddr, remote: Deno.NetAddr): Promise<number | undefined> {
  // The peer's socket is at our remote address, connected to our local one.
  const asked = socketUid(remote, local);
  return asked === null ? procPeerUid(local, remote) : Promise.resolve(asked);
}

/**
 * The uid owning the other end of a TCP connection, from /proc/net/tcp{,6}. Lookups made while
 * the tables are being read wait for one next read, shared by all of them: a flood of connections
 * costs a read of the tables per batch, not one (and a descriptor) each.
 */
export function procPeerUid(local: Deno.NetAddr, remote: Deno.NetAddr): Promise<number | undefined> {
  const { promise, resolve } = Promise.withResolvers<number | undefined>();
  waiting.push({ local, remote, resolve });
  reading ??= readInBatches();
  return promise;
}

/**
 * Reads the tables for one batch after another while lookups keep coming. The tables stay open
 * meanwhile, each read from its start again: under a flood that has taken every descriptor, a
 * lookup needs no new one.
 */
async function readInBatches(): Promise<void> {
  const tables = new Map<string, Deno.FsFile>();
  try {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const found = await findPeers(batch, tables).catch(() => new Map<Lookup, number>());
      for (const lookup of batch) lookup.resolve(found.get(lookup));
    }
  } finally {
    for (const file of tables.values()) closeQuietly(file);
    reading = undefined;
  }
}

/** Reads the tables once for every lookup of a batch. */
async function findPeers(batch: Lookup[], tables: Map<string, Deno.FsFile>): Promise<Map<Lookup, number>> {
  // The peer's row has our remote address as its local one, and ours as its remote one.
  const byRow = new Map(batch.map((l) => [`${key(l.remote)} ${key(l.local)}`, l]));
  const found = new Map<Lookup, number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readTable(table, tables);
    if (text === undefined) continue;
    for (const row of text.split("\n").slice(1)) {
      const cols = row.trim().split(/\s+/);
      if (cols.length < 8) continue;
      const mine = parseEndpoint(cols[1] ?? "");
      const theirs = parseEndpoint(cols[2] ?? "");
      const lookup = mine && theirs && byRow.get(`${key(mine)} ${key(theirs)}`);
      const uid = Number(cols[7]);
      if (lookup && Number.isInteger(uid)) found.set(lookup, uid);
    }
    if (found.size === batch.length) break;
  }
  return found;
}

/** A table's text now, from its file kept open (opened at its first read); undefined when unreadable. */
async function readTable(path: string, tables: Map<string, Deno.FsFile>): Promise<string | undefined> {
  try {
    let file = tables.get(path);
    if (!file) {
      file = await Deno.open(path);
      tables.set(path, file);
    }
    // A /proc table read from its start again is made again.
    await file.seek(0, Deno.SeekMode.Start);
    const decoder = new TextDecoder();
    const buf = new Uint8Array(64 * 1024);
    let text = "";
    for (let n = await file.read(buf); n !== null; n = await file.read(buf)) {
      text += decoder.decode(buf.subarray(0, n), { stream: true });
    }
    return text + decoder.decode();
  } catch {
    return undefined;
  }
}

function key(endpoint: { hostname?: string; host?: string; port: number }): string {
  return `${endpoint.hostname ?? endpoint.host}:${endpoint.port}`;
}

interface Endpoint {
  host: string;
  port: number;
}

/** `0100007F:1F90` or the 32-hex IPv6 form; each 32-bit word is printed in host (little-endian) order. */
function parseEndpoint(text: string): Endpoint | undefined {
  const [hex = "", portHex = ""] = text.split(":");
  const port = parseInt(portHex, 16);
  if (!Number.isInteger(port) || (hex.length !== 8 && hex.length !== 32)) return undefined;
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    for (let i = 6; i >= 0; i -= 2) bytes.push(parseInt(hex.slice(word + i, word + i + 2), 16));
  }
  if (bytes.some((b) => Number.isNaN(b))) return undefined;
  return { host: formatHost(bytes), port };
}

function formatHost(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join(".");
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join(".");
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return words.join(":");
}
