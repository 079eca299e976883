/** How a message's body is delimited on the wire. */
export type BodyFraming =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "until-close" };

/** A line or a head past its limit, a bad chunk, or an end in the middle of a message. */
export class Http1Malformed extends Error {
  override name = "Http1Malformed";
}

const LINE_LIMIT = 16 * 1024;
const HEAD_LIMIT = 64 * 1024;
const DECODER = new TextDecoder();

/**
 * Reads HTTP/1.1 from a connection through one buffer, for Link's own client and the endpoint's
 * server alike: lines and heads, then bodies by length, by chunks, or until the connection ends.
 * One read is ever pending, so a read started to notice the peer leaving (`peek`) is the one the
 * next line or body waits on.
 */
export class Http1Reader {
  #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  #filling: Promise<boolean> | undefined;
  #ended = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  /** Bytes read and not yet taken. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** Reads once more; false once the peer has ended (or the read failed). */
  fill(): Promise<boolean> {
    this.#filling ??= this.#read().finally(() => this.#filling = undefined);
    return this.#filling;
  }

  /** Resolves false once the peer has ended with nothing more buffered, true once more bytes came. */
  async peek(): Promise<boolean> {
    if (this.#buffer.length > 0) return true;
    return await this.fill();
  }

  /** One line without its CR LF; undefined when the peer ended before any byte of it. */
  async readLine(limit = LINE_LIMIT): Promise<string | undefined> {
    for (let from = 0;;) {
      const nl = this.#buffer.indexOf(10, from);
      if (nl >= 0) {
        const line = DECODER.decode(this.#buffer.subarray(0, nl)).replace(/\r$/, "");
        this.#buffer = this.#buffer.subarray(nl + 1);
        return line;
      }
      if (this.#buffer.length > limit) throw new Http1Malformed("a line is too long");
      from = this.#buffer.length;
      if (!(await this.fill())) {
        if (this.#buffer.length === 0) return undefined;
        throw new Http1Malformed("the connection ended in the middle of a line");
      }
    }
  }

  /**
   * The lines of the next head, start line first, up to its blank line; undefined when the peer
   * ended between messages. Empty lines before a start line are skipped.
   */
  async readHead(): Promise<string[] | undefined> {
    const lines: string[] = [];
    let size = 0;
    for (;;) {
      const line = await this.readLine();
      if (line === undefined) {
        if (lines.length === 0) return undefined;
        throw new Http1Malformed("the connection ended in the middle of a head");
      }
      size += line.length + 2;
      if (size > HEAD_LIMIT) throw new Http1Malformed("a head is too large");
      if (line === "") {
        if (lines.length > 0) return lines;
        continue;
      }
      lines.push(line);
    }
  }

  /** A body's bytes as they come, as views valid until the next read. */
  async *body(framing: BodyFraming): AsyncGenerator<Uint8Array> {
    if (framing.kind === "length") yield* this.#exactly(framing.length);
    else if (framing.kind === "chunked") yield* this.#chunked();
    else if (framing.kind === "until-close") {
      while (this.#buffer.length > 0 || await this.fill()) yield this.#take(this.#buffer.length);
    }
  }

  async *#exactly(length: number): AsyncGenerator<Uint8Array> {
    for (let left = length; left > 0;) {
      if (this.#buffer.length === 0 && !(await this.fill())) {
        throw new Http1Malformed("the connection ended in the middle of a body");
      }
      const piece = this.#take(Math.min(left, this.#buffer.length));
      left -= piece.length;
      yield piece;
    }
  }

  async *#chunked(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const line = await this.readLine();
      const size = /^([0-9a-fA-F]{1,13})[ \t]*(?:;.*)?$/.exec(line ?? "");
      if (!size) throw new Http1Malformed("a chunk size is not valid");
      const length = parseInt(size[1]!, 16);
      if (length === 0) break;
      yield* this.#exactly(length);
      if ((await this.readLine()) !== "") {
        throw new Http1Malformed("a chunk does not end where its size says");
      }
    }
    for (;;) {
      const trailer = await this.readLine();
      if (trailer === undefined) throw new Http1Malformed("the connection ended in the trailers");
      if (trailer === "") return;
    }
  }

  #take(n: number): Uint8Array {
    const piece = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return piece;
  }

  async #read(): Promise<boolean> {
    if (this.#ended) return false;
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.#conn.read(chunk).catch(() => null);
    if (n === null) {
      this.#ended = true;
      return false;
    }
    const next = new Uint8Array(this.#buffer.length + n);
    next.set(this.#buffer);
    next.set(chunk.subarray(0, n), this.#buffer.length);
    this.#buffer = next;
    return true;
  }
}
