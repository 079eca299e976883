import { closeQuietly, LinkError, writeAll } from "../../core/base/mod.ts";
import { type BodyFraming, Http1Malformed, Http1Reader } from "./http1_reader.ts";

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
  #reader: Http1Reader;
  #host: string;
  constructor(conn: Deno.Conn, host = "127.0.0.1") {
    this.#conn = conn;
    this.#reader = new Http1Reader(conn);
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
    let status = 100;
    let headers = new Headers();
    while (status >= 100 && status < 200) {
      const lines = await this.#reader.readHead().catch(() => undefined);
      if (!lines) throw closed();
      const statusLine = lines[0]!;
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (!match) {
        throw new LinkError(
          "PROOF_FAILED",
          `Cannot read the endpoint's answer: "${statusLine.slice(0, 60)}"`,
        );
      }
      status = Number(match[1]);
      headers = new Headers();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
    }
    const noBody = method === "HEAD" || status === 204 || status === 304;
    return { status, headers, body: noBody ? empty() : this.#body(headers) };
  }

  async *#body(headers: Headers): AsyncIterable<Uint8Array> {
    const length = headers.get("content-length");
    const framing: BodyFraming = /chunked/i.test(headers.get("transfer-encoding") ?? "")
      ? { kind: "chunked" }
      : length === null
      ? { kind: "until-close" }
      : { kind: "length", length: Number(length) };
    try {
      yield* this.#reader.body(framing);
    } catch (err) {
      if (err instanceof Http1Malformed) throw closed();
      throw err;
    }
  }
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
