import { type ByteSource, ConnReader, Http1Malformed } from "../http1/mod.ts";
import { bridgeFailure } from "./bridge_wire.ts";

const DECODER = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a bridge's newline-ended lines (U-2) from a connection, through the one line reader of
 * http1/, keeping what follows the line for the next read or for a relay, so no byte the caller
 * sent after its line is lost.
 */
export class LineReader {
  #reader: ConnReader;

  constructor(source: ByteSource) {
    this.#reader = new ConnReader(source, 16 * 1024);
  }

  /**
   * The next line without its newline, or undefined when the connection ends first. A line
   * longer than `maxBytes` (newline included) or not UTF-8 is `invalid`.
   */
  async readLine(maxBytes: number, what = "line"): Promise<string | undefined> {
    let line: Uint8Array | undefined;
    try {
      line = await this.#reader.readLine({ limit: maxBytes, end: "lf" });
    } catch (err) {
      // A line that ends at its LF alone can fail only by its length.
      if (!(err instanceof Http1Malformed)) throw err;
      throw bridgeFailure("invalid", `Cannot read the ${what}: it is longer than ${maxBytes} bytes`);
    }
    if (line === undefined) return undefined;
    try {
      return DECODER.decode(line);
    } catch {
      throw bridgeFailure("invalid", `Cannot read the ${what}: it is not UTF-8 text`);
    }
  }

  /** The bytes read past the last line, handed over once (to a relay). */
  takeRest(): Uint8Array {
    return this.#reader.takeRest();
  }
}
