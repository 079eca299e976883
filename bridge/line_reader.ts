import { bridgeFailure } from "./bridge_wire.ts";

/** Anything bytes are read from: a Deno.Conn. */
export interface ByteSource {
  read(p: Uint8Array): Promise<number | null>;
}

const NEWLINE = 0x0a;
const DECODER = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads newline-ended lines from a connection, keeping what follows the line for the next read
 * or for a relay, so no byte the caller sent after its line is lost.
 */
export class LineReader {
  #source: ByteSource;
  #held: Uint8Array[] = [];
  #heldBytes = 0;

  constructor(source: ByteSource) {
    this.#source = source;
  }

  /**
   * The next line without its newline, or undefined when the connection ends first. A line
   * longer than `maxBytes` (newline included) or not UTF-8 is `invalid`.
   */
  async readLine(maxBytes: number, what = "line"): Promise<string | undefined> {
    let scanned = 0;
    for (;;) {
      const at = this.#find(scanned);
      if (at >= 0) return this.#cut(at, what);
      scanned = this.#heldBytes;
      if (this.#heldBytes >= maxBytes) {
        throw bridgeFailure("invalid", `Cannot read the ${what}: it is longer than ${maxBytes} bytes`);
      }
      const chunk = new Uint8Array(Math.min(16 * 1024, Math.max(maxBytes - this.#heldBytes, 1)));
      const n = await this.#source.read(chunk);
      if (n === null) return undefined;
      this.#held.push(chunk.subarray(0, n));
      this.#heldBytes += n;
    }
  }

  /** The bytes read past the last line, handed over once (to a relay). */
  takeRest(): Uint8Array {
    const rest = join(this.#held, this.#heldBytes);
    this.#held = [];
    this.#heldBytes = 0;
    return rest;
  }

  #find(from: number): number {
    let offset = 0;
    for (const chunk of this.#held) {
      const end = offset + chunk.length;
      if (end > from) {
        const at = chunk.indexOf(NEWLINE, Math.max(0, from - offset));
        if (at >= 0) return offset + at;
      }
      offset = end;
    }
    return -1;
  }

  #cut(at: number, what: string): string {
    const all = join(this.#held, this.#heldBytes);
    const rest = all.slice(at + 1);
    this.#held = rest.length > 0 ? [rest] : [];
    this.#heldBytes = rest.length;
    try {
      return DECODER.decode(all.subarray(0, at));
    } catch {
      throw bridgeFailure("invalid", `Cannot read the ${what}: it is not UTF-8 text`);
    }
  }
}

function join(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
