import type { BridgeAddr } from "../../link_bridge/mod.ts";

/** A bridge caller that speaks raw lines, so tests can send what no real client would. */
export class RawClient implements AsyncDisposable {
  #conn: Deno.Conn;
  #buffer = "";
  #decoder = new TextDecoder();
  #closed = false;

  private constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  static async connect(addr: BridgeAddr): Promise<RawClient> {
    const conn = "path" in addr
      ? await Deno.connect({ transport: "unix", path: addr.path })
      : await Deno.connect({ hostname: addr.hostname, port: addr.port });
    return new RawClient(conn);
  }

  /** The next line without its newline; undefined once the bridge hangs up. */
  async readLine(): Promise<string | undefined> {
    for (;;) {
      const at = this.#buffer.indexOf("\n");
      if (at >= 0) {
        const line = this.#buffer.slice(0, at);
        this.#buffer = this.#buffer.slice(at + 1);
        return line;
      }
      const chunk = new Uint8Array(4096);
      const n = await this.#conn.read(chunk).catch(() => null);
      if (n === null) return undefined;
      this.#buffer += this.#decoder.decode(chunk.subarray(0, n), { stream: true });
    }
  }

  /** The challenge of the first line. */
  async challenge(): Promise<string> {
    const line = await this.readLine();
    const match = /^challenge ([0-9a-f]{64})$/.exec(line ?? "");
    if (!match?.[1]) throw new Error(`expected a challenge line, got ${JSON.stringify(line)}`);
    return match[1];
  }

  async write(text: string): Promise<void> {
    const bytes = new TextEncoder().encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += await this.#conn.write(bytes.subarray(offset));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#conn.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    this.close();
    return Promise.resolve();
  }
}
