/** The few methods of a connection the proxy uses; Deno.Conn and Deno.TlsConn have them. */
export interface ByteConn {
  read(buffer: Uint8Array): Promise<number | null>;
  write(bytes: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
}

const CRLF_CRLF = [13, 10, 13, 10];

/** Reads a connection through one buffer: HTTP heads and lines, then body bytes as they come. */
export class ConnReader {
  readonly conn: ByteConn;
  #buffer: Uint8Array;
  #start = 0;
  #end = 0;

  constructor(conn: ByteConn, size = 64 * 1024) {
    this.conn = conn;
    this.#buffer = new Uint8Array(size);
  }

  /** Bytes read but not yet taken. */
  get buffered(): number {
    return this.#end - this.#start;
  }

  /**
   * The next HTTP head, up to and including its blank line, as text (latin1). Null when the
   * connection ends before its first byte; throws when it ends mid-head or the head outgrows
   * the buffer. `started` is called once the head's first byte has come.
   */
  async readHead(started: () => void = () => {}): Promise<string | null> {
    let skip = 0;
    while (true) {
      if (this.buffered > 0) started();
      const found = this.#find(CRLF_CRLF, this.#start + skip);
      if (found >= 0) return this.#take(found + 4 - this.#start);
      skip = Math.max(0, this.buffered - 3);
      if (!(await this.#fill())) {
        if (this.buffered === 0) return null;
        throw new Error("the connection ended in the middle of a request head");
      }
    }
  }

  /** One line without its CRLF (chunk sizes, trailers); throws past 8 KiB or at the end. */
  async readLine(): Promise<string> {
    let skip = 0;
    while (true) {
      const found = this.#find([13, 10], this.#start + skip);
      if (found >= 0) return this.#take(found + 2 - this.#start).slice(0, -2);
      if (this.buffered > 8192) throw new Error("a line is too long");
      skip = Math.max(0, this.buffered - 1);
      if (!(await this.#fill())) throw new Error("the connection ended in the middle of a line");
    }
  }

  /**
   * Up to `max` bytes: what is buffered, else one read. Null at the end of the connection. The
   * bytes are a view valid until the next call.
   */
  async readSome(max = Infinity): Promise<Uint8Array | null> {
    if (this.buffered === 0 && !(await this.#fill())) return null;
    const n = Math.min(max, this.buffered);
    const view = this.#buffer.subarray(this.#start, this.#start + n);
    this.#start += n;
    return view;
  }

  #find(pattern: readonly number[], from: number): number {
    const b = this.#buffer;
    outer: for (let i = from; i + pattern.length <= this.#end; i++) {
      for (let j = 0; j < pattern.length; j++) if (b[i + j] !== pattern[j]) continue outer;
      return i;
    }
    return -1;
  }

  #take(n: number): string {
    let text = "";
    const b = this.#buffer;
    for (let i = this.#start; i < this.#start + n; i++) text += String.fromCharCode(b[i]!);
    this.#start += n;
    return text;
  }

  async #fill(): Promise<boolean> {
    if (this.#start === this.#end) this.#start = this.#end = 0;
    else if (this.#end === this.#buffer.length) {
      if (this.#start === 0) throw new Error("a request head is too large");
      this.#buffer.copyWithin(0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
    }
    const n = await this.conn.read(this.#buffer.subarray(this.#end));
    if (n === null) return false;
    this.#end += n;
    return true;
  }
}

/**
 * Turns Nagle's algorithm off on a TCP connection (a no-op on others): the proxy writes a head
 * and its body separately, and Nagle would hold the body for the peer's delayed ACK (40 ms).
 */
export function sendPromptly(conn: ByteConn): void {
  const tcp = conn as Partial<Deno.TcpConn>;
  if (typeof tcp.setNoDelay === "function") tcp.setNoDelay(true);
}
