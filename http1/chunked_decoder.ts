import { parseFieldLine } from "./fields.ts";
import { Http1Malformed } from "./http1_malformed.ts";
import { latin1Text } from "./latin1.ts";
import { MAX_CHUNK_LINE_BYTES, MAX_FIELDS, MAX_HEAD_BYTES } from "./limits.ts";
import { LineScanner } from "./line_scanner.ts";

/**
 * chunk-size [ chunk-ext ] (RFC 9112 §7.1): at most 12 hex digits, leading zeros counted (a size
 * JavaScript counts exactly, up to 256 TiB), then extensions, each `;name` or `;name=value` with
 * a token or a quoted string, SP or HTAB allowed around `;` and `=`.
 */
const CHUNK_LINE =
  /^([0-9A-Fa-f]{1,12})(?:[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*=[ \t]*(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*"))?)*$/;

type State = "size" | "data" | "cr" | "lf" | "trailers" | "done";

/**
 * Decodes a chunked body from bytes split anywhere: each chunk's data as views of the bytes fed,
 * the sizes, the CR LF after each chunk and the trailers checked and passed over. Trailers are
 * read as field lines and dropped: no user of Link's passes them on.
 */
export class ChunkedDecoder {
  #state: State = "size";
  #left = 0;
  #line = new LineScanner({ limit: MAX_CHUNK_LINE_BYTES });
  #trailerBytes = 0;
  #trailers = 0;

  /** True once the last chunk and the trailers have come. */
  get done(): boolean {
    return this.#state === "done";
  }

  /**
   * Decodes from `at`: the chunk data found there, if any, and where the rest begins. Stops after
   * each piece of data, and at the body's end. Throws Http1Malformed on what is not chunked.
   */
  decode(bytes: Uint8Array, at: number): { data?: Uint8Array; next: number } {
    let next = at;
    while (next < bytes.length && this.#state !== "done") {
      if (this.#state === "data") {
        const take = Math.min(this.#left, bytes.length - next);
        this.#left -= take;
        if (this.#left === 0) this.#state = "cr";
        return { data: bytes.subarray(next, next + take), next: next + take };
      }
      if (this.#state === "cr" || this.#state === "lf") {
        const want = this.#state === "cr" ? 0x0d : 0x0a;
        if (bytes[next] !== want) throw new Http1Malformed("a chunk does not end where its size says");
        this.#state = this.#state === "cr" ? "lf" : "size";
        next++;
        continue;
      }
      const { line, next: after } = this.#line.scan(bytes, next);
      if (this.#state === "trailers") this.#countTrailer(after - next);
      next = after;
      if (line) this.#onLine(latin1Text(line));
    }
    return { next };
  }

  #onLine(line: string): void {
    if (this.#state === "size") {
      const size = CHUNK_LINE.exec(line);
      if (!size) throw new Http1Malformed("a chunk size is not valid");
      this.#left = parseInt(size[1]!, 16);
      this.#state = this.#left === 0 ? "trailers" : "data";
    } else if (line === "") {
      this.#state = "done";
    } else {
      if (++this.#trailers > MAX_FIELDS) {
        throw new Http1Malformed(`there are more than ${MAX_FIELDS} trailers`);
      }
      parseFieldLine(line);
    }
  }

  #countTrailer(bytes: number): void {
    this.#trailerBytes += bytes;
    if (this.#trailerBytes > MAX_HEAD_BYTES) {
      throw new Http1Malformed(`the trailers are larger than ${MAX_HEAD_BYTES} bytes`);
    }
  }
}
