import { Http1Malformed } from "./http1_malformed.ts";

/**
 * How a line ends: HTTP's CR LF, strictly (RFC 9112 §2.2: no bare CR anywhere, no LF without its
 * CR), or the LF of a bridge's line protocol, where a CR is a byte like any other.
 */
export type LineEnd = "crlf" | "lf";

const CR = 0x0d;
const LF = 0x0a;

/**
 * Collects one line at a time from bytes split anywhere, up to a limit, and hands back where the
 * rest begins, so no byte after a line is lost. The one line reader of Link's wire protocols:
 * heads, chunk sizes and trailers, and the bridges' lines.
 */
export class LineScanner {
  #limit: number;
  #end: LineEnd;
  #held = new Uint8Array(0);
  #length = 0;

  /** `limit` is the most bytes a line may take, its line end included. */
  constructor(options: { limit: number; end?: LineEnd }) {
    this.#limit = options.limit;
    this.#end = options.end ?? "crlf";
  }

  /** True while part of a line is held. */
  get started(): boolean {
    return this.#length > 0;
  }

  /** The part of a line held so far: a view, valid until the next scan. */
  get partial(): Uint8Array {
    return this.#held.subarray(0, this.#length);
  }

  /**
   * Scans from `at`: the line without its line end and where the rest begins, or only where it
   * stopped when the line goes on past `bytes`. The line is a view of `bytes` when it came whole
   * in one scan, valid as long as they are. Throws Http1Malformed on a line too long, and in CR LF
   * lines on a bare CR or a lone LF.
   */
  scan(bytes: Uint8Array, at: number): { line?: Uint8Array; next: number } {
    if (at >= bytes.length) return { next: at };
    const lf = bytes.indexOf(LF, at);
    const stop = lf < 0 ? bytes.length : lf;
    if (this.#end === "crlf") this.#checkCr(bytes, at, stop, lf >= 0);
    const size = this.#length + (stop - at) + (lf < 0 ? 0 : 1);
    // A line still open needs one byte more at least: its LF.
    if (size > this.#limit || (lf < 0 && size >= this.#limit)) {
      throw new Http1Malformed(`a line is longer than ${this.#limit} bytes`);
    }
    if (lf < 0) {
      this.#hold(bytes.subarray(at));
      return { next: bytes.length };
    }
    let line = bytes.subarray(at, stop);
    if (this.#length > 0) {
      this.#hold(line);
      line = this.#held.slice(0, this.#length);
      this.#length = 0;
    }
    return { line: this.#end === "crlf" ? line.subarray(0, line.length - 1) : line, next: lf + 1 };
  }

  /** A CR may stand only just before the LF, or last of what came so far (its LF may follow). */
  #checkCr(bytes: Uint8Array, at: number, stop: number, found: boolean): void {
    const heldCr = this.#length > 0 && this.#held[this.#length - 1] === CR;
    if (heldCr && !(found && stop === at)) throw new Http1Malformed("a line holds a bare CR");
    const allowed = found ? stop - 1 : bytes.length - 1;
    for (let i = bytes.indexOf(CR, at); i >= 0 && i < stop; i = bytes.indexOf(CR, i + 1)) {
      if (i !== allowed) throw new Http1Malformed("a line holds a bare CR");
    }
    if (found && !(stop > at ? bytes[stop - 1] === CR : heldCr)) {
      throw new Http1Malformed("a line ends in LF without CR");
    }
  }

  #hold(bytes: Uint8Array): void {
    const needed = this.#length + bytes.length;
    if (needed > this.#held.length) {
      const bigger = new Uint8Array(Math.max(needed, this.#held.length * 2, 256));
      bigger.set(this.#held.subarray(0, this.#length));
      this.#held = bigger;
    }
    this.#held.set(bytes, this.#length);
    this.#length = needed;
  }
}
