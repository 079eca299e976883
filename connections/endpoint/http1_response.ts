import { writeAll } from "../../core/base/mod.ts";
import { encodeChunk, LAST_CHUNK, reasonPhrase } from "../../http1/mod.ts";

const ENCODER = new TextEncoder();

/** Headers the server writes itself: the framing and the connection's fate are its own. */
const OWN_HEADERS = new Set(["content-length", "transfer-encoding", "connection", "keep-alive"]);

/**
 * Writes a handler's Response on the connection: its head, then its body as chunks as the handler
 * writes them (an answer streams; nothing waits for its end), or Content-Length 0 with none. A
 * caller that left (`gone`, or a failed write) ends the body's stream. Never throws: says whether
 * the whole answer went.
 */
export async function writeResponse(
  conn: Deno.Conn,
  res: Response,
  request: { method: string; keepAlive: boolean; gone?: AbortSignal },
): Promise<boolean> {
  const bodiless = request.method === "HEAD" || res.status === 204 || res.status === 304;
  let head = `HTTP/1.1 ${res.status} ${res.statusText || reasonPhrase(res.status)}\r\n`;
  for (const [name, value] of res.headers) if (!OWN_HEADERS.has(name)) head += `${name}: ${value}\r\n`;
  if (!request.keepAlive) head += "Connection: close\r\n";
  if (bodiless || !res.body) {
    if (!bodiless) head += "Content-Length: 0\r\n";
    await res.body?.cancel().catch(() => {});
    return await writeAll(conn, ENCODER.encode(`${head}\r\n`)).then(() => true, () => false);
  }
  head += "Transfer-Encoding: chunked\r\n\r\n";
  const reader = res.body.getReader();
  const onGone = () => void reader.cancel().catch(() => {});
  request.gone?.addEventListener("abort", onGone, { once: true });
  try {
    await writeAll(conn, ENCODER.encode(head));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value.length > 0) await writeAll(conn, encodeChunk(value));
    }
    await writeAll(conn, LAST_CHUNK);
    return true;
  } catch {
    await reader.cancel().catch(() => {});
    return false;
  } finally {
    request.gone?.removeEventListener("abort", onGone);
  }
}
