import { closeQuietly, LinkError, writeAll } from "../../core/base/mod.ts";
import {
  ConnReader,
  Http1Malformed,
  type MessageBody,
  readBody,
  readResponseHead,
  responseFraming,
  type ResponseHead,
} from "../../http1/mod.ts";

/** One HTTP/1.1 request to write on a connection we hold. */
export interface Http1Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response read from a held connection; `body` must be read to its end before the next request. */
export interface Http1Response {
  status: number;
  headers: Headers;
  body: AsyncIterable<Uint8Array>;
}

const encoder = new TextEncoder();

/**
 * A tiny HTTP/1.1 client on a connection it keeps, so a proof and the message that follows go on
 * the same connection (BRG-2): `fetch` cannot promise that.
 */
export class Http1Connection {
  #conn: Deno.Conn;
  #reader: ConnReader;
  #host: string;
  constructor(conn: Deno.Conn, host = "127.0.0.1") {
    this.#conn = conn;
    // A failed read is the endpoint gone, as its end is.
    this.#reader = new ConnReader({ read: (buffer) => conn.read(buffer).catch(() => null) });
    this.#host = host;
  }

  async request(req: Http1Request): Promise<Http1Response> {
    const body = req.body === undefined ? undefined : encoder.encode(req.body);
    const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${this.#host}`, "Connection: keep-alive"];
    for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
    if (body) lines.push(`Content-Length: ${body.length}`);
    await writeAll(this.#conn, encoder.encode(`${lines.join("\r\n")}\r\n\r\n`));
    if (body) await writeAll(this.#conn, body);
    return await this.#readResponse(req.method);
  }

  close(): void {
    closeQuietly(this.#conn);
  }

  async #readResponse(method: string): Promise<Http1Response> {
    for (;;) {
      const head = await readResponseHead(this.#reader).catch((err) => {
        throw err instanceof Http1Malformed && !err.ended ? unreadable(err.message) : closed();
      });
      if (!head) throw closed();
      // Interim answers (100 Continue, 103 Early Hints) come before the one that answers.
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      const framing = framingOf(head, method);
      const headers = new Headers();
      for (const [name, value] of head.headers) headers.append(name, value);
      return { status: head.status, headers, body: framing.kind === "none" ? empty() : this.#body(framing) };
    }
  }

  async *#body(framing: MessageBody): AsyncIterable<Uint8Array> {
    try {
      yield* readBody(this.#reader, framing);
    } catch (err) {
      if (err instanceof Http1Malformed) throw closed();
      throw err;
    }
  }
}

/** How the answer's body is framed; an answer that cannot be framed, or switches protocols, is unreadable. */
function framingOf(head: ResponseHead, method: string): MessageBody {
  try {
    const framing = responseFraming(head, method);
    if (framing.kind !== "tunnel") return framing;
  } catch (err) {
    if (err instanceof Http1Malformed) throw unreadable(err.message);
    throw err;
  }
  throw unreadable("it switches to another protocol");
}

/** What came is not an HTTP/1.1 answer: whatever holds the port is not the agent's endpoint. */
function unreadable(why: string): LinkError {
  return new LinkError("PROOF_FAILED", `Cannot read the endpoint's answer: ${why}`);
}

async function* empty(): AsyncIterable<Uint8Array> {}

function closed(): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    "Cannot read the endpoint's answer: the connection closed mid-answer",
    {
      hint: "See `lnk agent logs` for why the harness stopped",
    },
  );
}

/** Reads a whole body as text. */
export async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Reads a body as lines of text, as they come. */
export async function* readLines(body: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
  if (buffer.trim()) yield buffer;
}
