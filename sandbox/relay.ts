import { closeQuietly, logger } from "../core/base/mod.ts";
import type { RelayRule } from "./relay_rule.ts";

const log = logger("relay");

/** A relay listening on one side and dialing the other for each connection (SBX-7). */
export interface Relay extends AsyncDisposable {
  readonly rule: RelayRule;
  /** The TCP port it listens on (the one asked for, or the one given for port 0). */
  readonly port: number | undefined;
}

/**
 * Serves one relay: every connection accepted on its listening side is joined to a fresh
 * connection to its other side, both directions, each half closed when its sender ends. A
 * unix socket left from an earlier run is replaced; the new one is readable by this user alone.
 */
export async function serveRelay(rule: RelayRule, options: { signal?: AbortSignal } = {}): Promise<Relay> {
  const listener = await listen(rule);
  const dial = (): Promise<Deno.Conn> =>
    rule.kind === "tcp-to-unix"
      ? Deno.connect({ transport: "unix", path: rule.socket })
      : Deno.connect({ hostname: "127.0.0.1", port: rule.port });
  const open = new Set<Deno.Conn>();
  const joins = new Set<Promise<void>>();
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const done = join(conn, dial, open).finally(() => joins.delete(done));
        joins.add(done);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.BadResource)) {
        log.warn("Relay stopped accepting", { error: String(err) });
      }
    }
  })();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    options.signal?.removeEventListener("abort", onAbort);
    try {
      listener.close();
    } catch { /* closed already */ }
    for (const conn of open) closeQuietly(conn);
    await accepting;
    await Promise.all([...joins]);
    if (rule.kind === "unix-to-tcp") await Deno.remove(rule.socket).catch(() => {});
  };
  const onAbort = () => void close();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const addr = listener.addr;
  return {
    rule,
    port: addr.transport === "tcp" ? addr.port : undefined,
    [Symbol.asyncDispose]: close,
  };
}

async function listen(rule: RelayRule): Promise<Deno.Listener> {
  if (rule.kind === "tcp-to-unix") return Deno.listen({ hostname: "127.0.0.1", port: rule.port });
  await removeStaleSocket(rule.socket);
  const listener = Deno.listen({ transport: "unix", path: rule.socket });
  await Deno.chmod(rule.socket, 0o600);
  return listener;
}

async function removeStaleSocket(path: string): Promise<void> {
  try {
    const info = await Deno.lstat(path);
    if (info.isSocket) await Deno.remove(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

async function join(inbound: Deno.Conn, dial: () => Promise<Deno.Conn>, open: Set<Deno.Conn>): Promise<void> {
  open.add(inbound);
  let outbound: Deno.Conn | undefined;
  try {
    outbound = await dial();
    open.add(outbound);
    await Promise.all([pump(inbound, outbound), pump(outbound, inbound)]);
  } catch (err) {
    log.debug("Relay connection ended", { error: String(err) });
  } finally {
    for (const conn of [inbound, outbound]) {
      if (!conn) continue;
      open.delete(conn);
      closeQuietly(conn);
    }
  }
}

async function pump(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  try {
    while (true) {
      const n = await from.read(buffer);
      if (n === null) break;
      let offset = 0;
      while (offset < n) offset += await to.write(buffer.subarray(offset, n));
    }
    await to.closeWrite();
  } catch (err) {
    // One side failing ends both: closing them unblocks the other direction.
    closeQuietly(from);
    closeQuietly(to);
    throw err;
  }
}
