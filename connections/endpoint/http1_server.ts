import {
  type Clock,
  closeQuietly,
  errorResponse,
  keepAccepting,
  LinkError,
  logger,
  writeAll,
} from "../../core/base/mod.ts";
import {
  type ByteSource,
  chunkedAlone,
  ConnReader,
  expectsContinue,
  hasToken,
  Http1Malformed,
  type MessageBody,
  readBody,
  readRequestHead,
  requestFraming,
  type RequestHead,
} from "../../http1/mod.ts";
import { writeResponse } from "./http1_response.ts";

const log = logger("endpoint");

/**
 * One connection to the endpoint, as its handler is told: a challenge the endpoint hands out on it
 * holds on it alone (BRG-2). `closed` aborts once the connection has ended.
 */
export interface EndpointConn {
  readonly closed: AbortSignal;
}

/** An endpoint's handler: a request, and the connection it came on. */
export type EndpointHandler = (req: Request, conn: EndpointConn) => Response | Promise<Response>;

/** A running endpoint server. */
export interface EndpointServer extends AsyncDisposable {
  /** Settles once it has stopped and every connection has ended. */
  readonly finished: Promise<void>;
  /** Stops accepting, lets the answers under way end, and closes every connection. */
  shutdown(): Promise<void>;
}

/** Where the endpoint listens and what stops it. */
export interface ServeEndpointOptions {
  /** Its unix socket; a stale one is replaced. */
  path: string;
  /** Time for the waits after a failed accept; tests drive it. */
  clock?: Clock;
  signal?: AbortSignal;
}

interface Served {
  conn: Deno.Conn;
  /** Waiting for its next request: closed at once when the server stops. */
  idle: boolean;
}

/**
 * Serves an endpoint on a unix socket with HTTP/1.1, connection by connection, telling the
 * handler which connection each request came on: Deno.serve gives no identity on a unix socket,
 * and a proof must be bound to its connection (BRG-2). Requests on a connection are answered in
 * turn, kept alive; answers stream, chunked, as the handler writes them. A request's signal aborts
 * when its caller leaves before its answer has gone, and once the answer has gone, as with
 * Deno.serve.
 */
export async function serveEndpoint(
  options: ServeEndpointOptions,
  handler: EndpointHandler,
): Promise<EndpointServer> {
  await Deno.remove(options.path).catch(() => {});
  const listener = Deno.listen({ transport: "unix", path: options.path });
  const stop = new AbortController();
  const served = new Set<Served>();
  const tasks = new Set<Promise<void>>();
  const accepting = keepAccepting(listener, {
    name: "endpoint",
    clock: options.clock,
    signal: stop.signal,
    onConn(conn) {
      const entry: Served = { conn, idle: true };
      served.add(entry);
      const task = serveConnection(entry, handler, stop.signal)
        .catch((err) => log.debug("An endpoint connection ended", { err }))
        .finally(() => {
          closeQuietly(conn);
          served.delete(entry);
          tasks.delete(task);
        });
      tasks.add(task);
    },
  });
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    stopping ??= (async () => {
      stop.abort();
      closeQuietly(listener);
      await accepting.catch(() => {});
      for (const entry of served) if (entry.idle) closeQuietly(entry.conn);
      while (tasks.size > 0) await Promise.all([...tasks]);
    })();
  const finished = accepting.then(() => shutdown(), async (err) => {
    log.error("The endpoint stopped accepting", { err });
    await shutdown();
  });
  if (options.signal?.aborted) void shutdown();
  options.signal?.addEventListener("abort", () => void shutdown(), { once: true });
  return { finished, shutdown, [Symbol.asyncDispose]: shutdown };
}

async function serveConnection(entry: Served, handler: EndpointHandler, stop: AbortSignal): Promise<void> {
  const reader = new ConnReader(endsOnFailure(entry.conn));
  const closed = new AbortController();
  const conn: EndpointConn = { closed: closed.signal };
  try {
    while (!stop.aborted) {
      entry.idle = true;
      const parsed = await readRequestHead(reader).then(
        (head) => head && parseRequest(head),
        (err) => err instanceof Http1Malformed ? err : null,
      );
      entry.idle = false;
      if (parsed === null) return;
      if (parsed instanceof Http1Malformed) {
        await writeResponse(entry.conn, badRequest(parsed.message), { method: "GET", keepAlive: false });
        return;
      }
      if (!(await answer(reader, entry.conn, parsed, { handler, conn }))) return;
    }
  } finally {
    closed.abort();
  }
}

interface ParsedRequest {
  method: string;
  target: string;
  headers: Headers;
  framing: MessageBody;
  keepAlive: boolean;
  expectsContinue: boolean;
}

/** Answers one request; whether the connection may carry another. */
async function answer(
  reader: ConnReader,
  socket: Deno.Conn,
  request: ParsedRequest,
  context: { handler: EndpointHandler; conn: EndpointConn },
): Promise<boolean> {
  const gone = new AbortController();
  let bodyEnded = request.framing.kind === "none";
  // Once the body is read, a read waits for the caller's next request, or its leaving.
  const watch = () => void reader.peek().then((more) => more || gone.abort());
  if (bodyEnded) watch();
  if (request.expectsContinue && !bodyEnded) {
    await writeAll(socket, new TextEncoder().encode("HTTP/1.1 100 Continue\r\n\r\n")).catch(() => {});
  }
  const pieces = readBody(reader, request.framing);
  const body = bodyEnded ? null : bodyStream(pieces, () => {
    bodyEnded = true;
    watch();
  });
  const req = new Request(`http://endpoint${request.target}`, {
    method: request.method,
    headers: request.headers,
    body,
    signal: gone.signal,
  });
  let res: Response;
  try {
    res = await context.handler(req, context.conn);
  } catch (err) {
    log.error("The endpoint's handler failed", { err });
    res = errorResponse(new LinkError("INTERNAL", "the endpoint failed"));
  }
  let sent: boolean;
  let keepAlive: boolean;
  try {
    keepAlive = request.keepAlive && !gone.signal.aborted;
    sent = await writeResponse(socket, res, { method: request.method, keepAlive, gone: gone.signal });
  } finally {
    gone.abort();
  }
  // A body the handler left unread is read past, so the next request is found (and the caller's
  // answer is not lost to a reset when the connection closes).
  const drained = bodyEnded || (sent && await skipped(pieces));
  return sent && keepAlive && drained;
}

/** Reads what is left of a body, up to DRAIN_LIMIT bytes; whether it all came. */
async function skipped(pieces: AsyncGenerator<Uint8Array>): Promise<boolean> {
  let size = 0;
  try {
    for await (const piece of pieces) {
      size += piece.length;
      if (size > DRAIN_LIMIT) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The most of a body the handler left unread that is read past to keep the connection. */
const DRAIN_LIMIT = 1024 * 1024;

/** A body read from the connection as a stream, each piece copied out of the reader's buffer. */
function bodyStream(pieces: AsyncGenerator<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) {
          ended();
          controller.close();
        } else controller.enqueue(next.value.slice());
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}

/** A connection whose failed read is read as its end: a caller gone is a caller gone. */
function endsOnFailure(conn: Deno.Conn): ByteSource {
  return { read: (buffer) => conn.read(buffer).catch(() => null) };
}

/**
 * A request the endpoint answers, or why not: a path (never another form of target), and a body
 * chunked alone or of a length, as the grammar reads them.
 */
function parseRequest(head: RequestHead): ParsedRequest | Http1Malformed {
  if (!head.target.startsWith("/")) return new Http1Malformed("the request line is not HTTP/1.1 with a path");
  let framing: MessageBody;
  try {
    framing = requestFraming(head);
  } catch (err) {
    if (err instanceof Http1Malformed) return err;
    throw err;
  }
  if (!chunkedAlone(head.headers)) return new Http1Malformed("the transfer coding is not chunked");
  const headers = new Headers();
  for (const [name, value] of head.headers) headers.append(name, value);
  return {
    method: head.method,
    target: head.target,
    headers,
    framing: framing.kind === "length" && framing.length === 0 ? { kind: "none" } : framing,
    keepAlive: head.version === "HTTP/1.1" && !hasToken(head.headers, "connection", "close"),
    expectsContinue: expectsContinue(head.headers),
  };
}

function badRequest(why: string): Response {
  return errorResponse(new LinkError("INVALID", `Cannot read the request: ${why}`));
}
