import { LinkError } from "../../core/base/mod.ts";

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
  #buffer = new Uint8Array(0);
  #host: string;
  constructor(conn: Deno.Conn, host = "127.0.0.1") {
    this.#conn = conn;
    this.#host = host;
  }

  async request(req: Http1Request): Promise<Http1Response> {
    const body = req.body === undefined ? undefined : encoder.encode(req.body);
    const lines = [`${req.method} ${req.path} HTTP/1.1`, `Host: ${this.#host}`, "Connection: keep-alive"];
    for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
    if (body) lines.push(`Content-Length: ${body.length}`);
    await this.#writeAll(encoder.encode(`${lines.join("\r\n")}\r\n\r\n`));
    if (body) await this.#writeAll(body);
    return await this.#readResponse(req.method);
  }

  close(): void {
    try {
      this.#conn.close();
    } catch { /* closed already */ }
  }

  async #writeAll(bytes: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) offset += await this.#conn.write(bytes.subarray(offset));
  }

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(65536);
    const n = await this.#conn.read(chunk);
    if (n === null) return false;
    const next = new Uint8Array(this.#buffer.length + n);
    next.set(this.#buffer);
    next.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = next;
    return true;
  }

  async #readLine(): Promise<string> {
    while (true) {
      const nl = this.#buffer.indexOf(10);
      if (nl >= 0) {
        const line = new TextDecoder().decode(this.#buffer.subarray(0, nl)).replace(/\r$/, "");
        this.#buffer = this.#buffer.subarray(nl + 1);
        return line;
      }
      if (!(await this.#fill())) throw closed();
    }
  }

  async #readResponse(method: string): Promise<Http1Response> {
    let status = 100;
    let headers = new Headers();
    while (status >= 100 && status < 200) {
      const statusLine = await this.#readLine();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      if (!match) {
        throw new LinkError(
          "PROOF_FAILED",
          `Cannot read the endpoint's answer: "${statusLine.slice(0, 60)}"`,
        );
      }
      status = Number(match[1]);
      headers = new Headers();
      for (let line = await this.#readLine(); line !== ""; line = await this.#readLine()) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
    }
    const noBody = method === "HEAD" || status === 204 || status === 304;
    return { status, headers, body: noBody ? empty() : this.#body(headers) };
  }

  async *#body(headers: Headers): AsyncIterable<Uint8Array> {
    if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
      yield* this.#chunked();
      return;
    }
    const length = headers.get("content-length");
    let left = length === null ? Infinity : Number(length);
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill())) {
        if (left === Infinity) return;
        throw closed();
      }
      const take = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
      this.#buffer = this.#buffer.subarray(take.length);
      left -= take.length;
      yield take;
    }
  }

  async *#chunked(): AsyncIterable<Uint8Array> {
    while (true) {
      const size = parseInt((await this.#readLine()).split(";")[0]!, 16);
      if (Number.isNaN(size)) throw closed();
      if (size === 0) {
        while ((await this.#readLine()) !== "") { /* trailers */ }
        return;
      }
      let left = size;
      while (left > 0) {
        if (this.#buffer.length === 0 && !(await this.#fill())) throw closed();
        const take = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
        this.#buffer = this.#buffer.subarray(take.length);
        left -= take.length;
        yield take;
      }
      await this.#readLine();
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
