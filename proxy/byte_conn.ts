/** The few methods of a connection the proxy uses; Deno.Conn and Deno.TlsConn have them. */
export interface ByteConn {
  read(buffer: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
}

/**
 * Turns Nagle's algorithm off on a TCP connection (a no-op on others): the proxy writes a head
 * and its body separately, and Nagle would hold the body for the peer's delayed ACK (40 ms).
 */
export function sendPromptly(conn: ByteConn): void {
  const tcp = conn as Partial<Deno.TcpConn>;
  if (typeof tcp.setNoDelay === "function") tcp.setNoDelay(true);
}
