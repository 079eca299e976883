import { writeAll } from "../core/base/mod.ts";
/** The connection's bytes as a stream, `first` before the rest (carries). */
export function relayFrom(conn: Deno.Conn, first: Uint8Array): ReadableStream<Uint8Array> {
  // carries: the caller's bytes after its proof, unread by the bridge library.
  let rest: Uint8Array | undefined = first.length > 0 ? first : undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (rest) {
        controller.enqueue(rest);
        rest = undefined;
        return;
      }
      const buf = new Uint8Array(16 * 1024);
      const n = await conn.read(buf).catch(() => null);
      if (n === null) controller.close();
      else controller.enqueue(buf.subarray(0, n));
    },
  });
}

/** A stream writing to the connection; closing it ends our writing side (carries). */
export function relayTo(conn: Deno.Conn): WritableStream<Uint8Array> {
  // carries: bytes to the caller, passed on as they come.
  return new WritableStream<Uint8Array>({
    write: (chunk) => writeAll(conn, chunk),
    close: () => conn.closeWrite().catch(() => {}),
  });
}
