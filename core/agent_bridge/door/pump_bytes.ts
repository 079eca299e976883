import { closeQuietly, writeAll } from "../../base/mod.ts";

/** How one direction of a carried connection is copied. */
export interface PumpHow {
  /** Each piece read, before it goes on (the framing tracker). */
  observe(bytes: Uint8Array): void;
  /** Bytes moved: the door's idle watch. */
  traffic(): void;
  /** The direction ended cleanly: the door's state may have changed. */
  settled(): void;
  /** The direction ended (read to its end, or broken). */
  ended?: () => void;
  /** Bytes read already, or null at the end: read before the upstream was reached. */
  first?: Promise<Uint8Array | null>;
  /** Judges what came before it goes on: held while a head is not whole, never sent if refused. */
  gate?: () => Promise<"pass" | "hold" | "refused">;
  refused?: () => void;
}

/**
 * Copies one direction of a carried connection, telling `observe` first; an end is passed on as a
 * half close, a failure closes both sides.
 */
export async function pumpBytes(from: Deno.Conn, to: Deno.Conn, how: PumpHow): Promise<void> {
  const buf = new Uint8Array(32 * 1024);
  const ended = how.ended ?? (() => {});
  const held: Uint8Array[] = [];
  try {
    for (let pending = how.first;; pending = undefined) {
      const read = pending ? await pending : await readInto(from, buf);
      if (read === null) break;
      // A held piece is kept whole: the next read reuses buf.
      const bytes = how.gate ? read.slice() : read;
      how.observe(bytes);
      how.traffic();
      if (how.gate) {
        held.push(bytes);
        const verdict = await how.gate();
        if (verdict === "refused") return how.refused?.();
        if (verdict === "hold") continue;
        for (const piece of held.splice(0)) await writeAll(to, piece);
      } else await writeAll(to, bytes);
    }
    ended();
    how.settled();
    await to.closeWrite().catch(() => {});
  } catch {
    ended();
    closeQuietly(from);
    closeQuietly(to);
  }
}

/** One read of a caller's bytes, copied out; null once it ended or failed. */
export function readOnce(conn: Deno.Conn): Promise<Uint8Array | null> {
  const buf = new Uint8Array(32 * 1024);
  return conn.read(buf).then((n) => (n === null ? null : buf.slice(0, n)), () => null);
}

/** One read into `buf`, a view of what came; null at the end (an error is thrown). */
async function readInto(conn: Deno.Conn, buf: Uint8Array): Promise<Uint8Array | null> {
  const n = await conn.read(buf);
  return n === null ? null : buf.subarray(0, n);
}
