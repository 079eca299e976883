/**
 * An HTTP/1.1 server on 127.0.0.1, port 0, read with Link's own HTTP/1.1 grammar instead of
 * Deno.serve, so a fake can do what a network does to a client: drop a connection in the middle of
 * a request, before any byte of an answer. Keep-alive as node's http.Agent uses it; a request whose
 * client goes away has its signal aborted.
 */
import {
  ConnReader,
  headerValue,
  latin1,
  readBody,
  readRequestHead,
  reasonPhrase,
  requestFraming,
} from "../../../http1/mod.ts";

/** What a handler answers to have the connection dropped with no answer. */
export const DROP: unique symbol = Symbol("drop");

/** Answers one request; `signal` aborts when its client leaves or the connection is dropped. */
export type LoopbackHandler = (req: Request, signal: AbortSignal) => Promise<Response | typeof DROP>;

/** A running loopback server. */
export interface LoopbackServer {
  readonly port: number;
  /** Destroys every connection with a request in flight; how many it destroyed. */
  dropInFlight(): number;
  /** Stops listening, destroys every connection and waits for their tasks. */
  close(): Promise<void>;
}

interface OpenConn {
  conn: Deno.Conn;
  inFlight: AbortController | undefined;
}

/** Starts serving `handler` on 127.0.0.1, port 0. */
export function serveLoopback(handler: LoopbackHandler): LoopbackServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  const open = new Set<OpenConn>();
  const tasks = new Set<Promise<void>>();

  const track = (task: Promise<void>) => {
    tasks.add(task);
    task.finally(() => tasks.delete(task));
  };

  const destroy = (entry: OpenConn) => {
    entry.inFlight?.abort();
    if (open.delete(entry)) closeQuietly(entry.conn);
  };

  async function serveConn(entry: OpenConn): Promise<void> {
    const reader = new ConnReader(entry.conn);
    try {
      for (;;) {
        const head = await readRequestHead(reader);
        if (!head) return;
        const parts: Uint8Array[] = [];
        for await (const part of readBody(reader, requestFraming(head))) parts.push(part.slice());
        const body = await new Blob(parts as BlobPart[]).bytes();
        const headers = new Headers(head.headers.map(([name, value]) => [name, value]));
        const bodyless = head.method === "GET" || head.method === "HEAD";
        const request = new Request(`http://127.0.0.1:${port}${head.target}`, {
          method: head.method,
          headers,
          body: bodyless ? undefined : body,
        });
        const inFlight = new AbortController();
        entry.inFlight = inFlight;
        // A read begun now notices the client leaving; the next head waits on that same read.
        reader.peek().then((more) => more || inFlight.abort(), () => inFlight.abort());
        const answer = await handler(request, inFlight.signal);
        entry.inFlight = undefined;
        if (answer === DROP || inFlight.signal.aborted) return;
        const closing = headerValue(head.headers, "connection")?.toLowerCase() === "close";
        await writeResponse(entry.conn, answer, closing);
        if (closing) return;
      }
    } catch {
      // A connection destroyed or broken mid-request: it simply ends.
    } finally {
      destroy(entry);
    }
  }

  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const entry: OpenConn = { conn, inFlight: undefined };
        open.add(entry);
        track(serveConn(entry));
      }
    } catch {
      // The listener was closed.
    }
  })();

  return {
    port,
    dropInFlight() {
      const held = [...open].filter((entry) => entry.inFlight !== undefined);
      for (const entry of held) destroy(entry);
      return held.length;
    },
    async close() {
      closeQuietly(listener);
      await accepting;
      for (const entry of [...open]) destroy(entry);
      while (tasks.size > 0) await Promise.all([...tasks]);
    },
  };
}

async function writeResponse(conn: Deno.Conn, response: Response, closing: boolean): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  let head = `HTTP/1.1 ${response.status} ${response.statusText || reasonPhrase(response.status)}\r\n`;
  for (const [name, value] of response.headers) {
    if (name !== "content-length" && name !== "connection") head += `${name}: ${value}\r\n`;
  }
  head += `content-length: ${body.length}\r\nconnection: ${closing ? "close" : "keep-alive"}\r\n\r\n`;
  const bytes = new Uint8Array([...latin1(head), ...body]);
  for (let done = 0; done < bytes.length;) done += await conn.write(bytes.subarray(done));
}

function closeQuietly(closer: { close(): void }): void {
  try {
    closer.close();
  } catch {
    // Already closed.
  }
}
