import { join } from "node:path";
import { announceReady, homeFrom, LinkPaths, logger, PORT_TAKEN_EXIT } from "../../base/mod.ts";
import { loadSettings } from "../settings.ts";
import { roleAgentId } from "./role_flags.ts";

const log = logger("bridge");

/**
 * `lnk agent bridge --agent <id>`: the agent's bridge, outside the sandbox. It holds the agent's
 * port (the door) and relays each connection to the harness's endpoint socket.
 */
export async function runBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const id = roleAgentId(args);
  const paths = new LinkPaths(homeFrom(Deno.env));
  const settings = await loadSettings(paths, id);
  const endpoint = join(paths.net(id), "endpoint.sock");
  let listener: Deno.TcpListener;
  try {
    listener = Deno.listen({ hostname: "127.0.0.1", port: settings.ports.endpoint });
  } catch (err) {
    if (!(err instanceof Deno.errors.AddrInUse)) throw err;
    log.error("Cannot hold the agent's port: another program holds it", {
      agent: id,
      port: settings.ports.endpoint,
    });
    return PORT_TAKEN_EXIT;
  }
  signal.addEventListener("abort", () => listener.close(), { once: true });
  log.info("Door open", { agent: id, port: settings.ports.endpoint });
  announceReady({ port: settings.ports.endpoint });
  try {
    for await (const conn of listener) relay(conn, endpoint);
  } catch (err) {
    if (!signal.aborted) throw err;
  }
  return 0;
}

async function relay(conn: Deno.TcpConn, endpoint: string): Promise<void> {
  let inner: Deno.UnixConn;
  try {
    inner = await Deno.connect({ transport: "unix", path: endpoint });
  } catch (err) {
    log.warn("Cannot reach the harness", { error: err });
    const body = "The agent's harness is not answering";
    await conn.write(
      new TextEncoder().encode(
        `HTTP/1.1 503 Service Unavailable\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ),
    ).catch(() => {});
    conn.close();
    return;
  }
  // carries: bytes only, both ways, never read.
  await Promise.allSettled([conn.readable.pipeTo(inner.writable), inner.readable.pipeTo(conn.writable)]);
}
