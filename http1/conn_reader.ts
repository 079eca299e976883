import { type LineEnd, LineScanner } from "./line_scanner.ts";

/** Anything bytes are read from: a Deno.Conn, a Deno.TlsConn. */
export interface ByteSource {
  read(buffer: Uint8Array): Promise<number | null>;
}

/**
 * Reads a connection through one buffer, keeping every byte it read and nobody took yet: HTTP
 * heads and bodies read through it (`readRequestHead`, `readBody`), a bridge's lines
 * (`readLine`), and what follows them for a relay (`takeRest`). One read is ever pending, so a
 * read begun to notice the peer leaving (`peek`) is the one the next head waits on.
 */
export class ConnReader<C extends ByteSource = ByteSource> {
  readonly conn: C;
  #buffer: Uint8Array;
  #start = 0;
  #end = 0;
  #filling: Promise<boolean> | undefined;
  #ended = false;

  constructor(conn: C, size = 64 * 1024) {
    this.conn = conn;
    this.#buffer = new Uint8Array(size);
  }

  /** How many bytes were read and not yet taken. */
  get buffered(): number {
    return this.#end - this.#start;
  }

  /** The bytes read and not yet taken: a view, valid until the next read. */
  get bytes(): Uint8Array {
    return this.#buffer.subarray(this.#start, this.#end);
  }

  /** Takes `n` of the bytes read: a scanner has read them. */
  consume(n: number): void {
    this.#start = Math.min(this.#end, this.#start + n);
  }

  /** Reads once more (or joins the read under way); false once the peer has ended. */
  fill(): Promise<boolean> {
    this.#filling ??= this.#read().finally(() => this.#filling = undefined);
    return this.#filling;
  }

  /** True once bytes are here to take, false once the peer has ended with none left. */
  async peek(): Promise<boolean> {
    return this.buffered > 0 || await this.fill();
  }

  /**
   * Up to `max` bytes: what is buffered, else one read. Null once the peer has ended. A view,
   * valid until the next read.
   */
  async readSome(max = Infinity): Promise<Uint8Array | null> {
    if (this.buffered === 0 && !(await this.fill())) return null;
    const view = this.#buffer.subarray(this.#start, this.#start + Math.min(max, this.buffered));
    this.#start += view.length;
    return view;
  }

  /**
   * The next line without its line end, or undefined when the peer ends before its end (what
   * came of it is dropped). Throws Http1Malformed on a line past `limit` bytes, line end included.
   */
  async readLine(options: { limit: number; end?: LineEnd }): Promise<Uint8Array | undefined> {
    const scanner = new LineScanner(options);
    for (;;) {
      if (this.buffered > 0) {
        const { line, next } = scanner.scan(this.bytes, 0);
        this.consume(next);
        if (line) return line;
      }
      if (!(await this.fill())) return undefined;
    }
  }

  /** The bytes read and not yet taken, handed over once (to a relay); a copy. */
  takeRest(): Uint8Array {
    const rest = this.bytes.slice();
    this.#start = this.#end;
    return rest;
  }

  async #read(): Promise<boolean> {
    if (this.#ended) return false;
    this.#makeRoom();
    const n = await this.conn.read(this.#buffer.subarray(this.#end));
    if (n === null) {
      this.#ended = true;
      return false;
    }
    this.#end += n;
    return true;
  }

  #makeRoom(): void {
    if (this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end < this.#buffer.length) return;
    if (this.#start > 0) {
      this.#buffer.copyWithin(0, this.#start, this.#end);
    } else {
      // Nothing was taken of a full buffer: a reader that leaves bytes untaken (none here does).
      const bigger = new Uint8Array(this.#buffer.length * 2);
      bigger.set(this.#buffer);
      this.#buffer = bigger;
    }
    this.#end -= this.#start;
    this.#start = 0;
  }
}
