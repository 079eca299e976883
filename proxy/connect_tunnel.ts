import { closeQuietly, writeAll } from "../core/base/mod.ts";
import { type ConnReader, latin1 } from "../http1/mod.ts";
import type { ByteConn } from "./byte_conn.ts";

/**
 * Answers a CONNECT with 200 and carries bytes both ways until both sides are done. Bytes the
 * caller sent after its head go first; each side's end is passed on as a half close, so a
 * protocol that ends one direction first (a request, then its answer) still works. An error on
 * either side closes both.
 */
export async function tunnel(client: ConnReader<ByteConn>, upstream: ByteConn): Promise<void> {
  await writeAll(client.conn, latin1("HTTP/1.1 200 Connection Established\r\n\r\n"));
  const closeBoth = () => [client.conn, upstream].forEach(closeQuietly);
  const outbound = async () => {
    for (let piece = await client.readSome(); piece; piece = await client.readSome()) {
      await writeAll(upstream, piece);
    }
    await upstream.closeWrite();
  };
  const inbound = async () => {
    const buffer = new Uint8Array(64 * 1024);
    for (let n = await upstream.read(buffer); n !== null; n = await upstream.read(buffer)) {
      await writeAll(client.conn, buffer.subarray(0, n));
    }
    await client.conn.closeWrite();
  };
  try {
    await Promise.all(
      [outbound(), inbound()].map((p) => p.catch((err) => (closeBoth(), Promise.reject(err)))),
    );
  } catch {
    // A reset on either side ends the tunnel; there is no one left to tell.
  }
}
