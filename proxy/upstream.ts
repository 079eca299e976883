import type { ByteConn } from "./byte_conn.ts";

/** Opens a TCP connection to a checked address (an IP literal, never a name). */
export type Dial = (address: string, port: number) => Promise<ByteConn>;

/**
 * Starts TLS on a connection already dialled to the checked address, verifying the certificate
 * for `hostname` (also the server name sent). Tests pass one that returns the connection as it
 * is, so an "https" upstream can be a plain loopback fake.
 */
export type StartTls = (conn: ByteConn, hostname: string) => Promise<ByteConn>;

/** Deno.connect to the address: no name is looked up again here. */
export function dialTcp(address: string, port: number): Promise<ByteConn> {
  return Deno.connect({ hostname: address, port });
}

/**
 * Deno.startTls on the dialled connection, handshake done. Not Deno.connectTls: that takes a name and resolves
 * it again, which could dial an address the checks never saw.
 */
export async function startTls(conn: ByteConn, hostname: string): Promise<ByteConn> {
  const tls = await Deno.startTls(conn as Deno.TcpConn, { hostname });
  // The handshake would otherwise wait for the first write; a bad certificate must fail here.
  await tls.handshake();
  return tls;
}

/** Deno.resolveDns for A then AAAA records, IPv4 first; throws when a name has neither. */
export async function resolveDns(name: string): Promise<string[]> {
  const [a, aaaa] = await Promise.allSettled([Deno.resolveDns(name, "A"), Deno.resolveDns(name, "AAAA")]);
  const found = [
    ...(a.status === "fulfilled" ? a.value : []),
    ...(aaaa.status === "fulfilled" ? aaaa.value : []),
  ];
  if (found.length === 0) throw a.status === "rejected" ? a.reason : new Error("the name has no address");
  return found;
}
