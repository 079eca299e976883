import { isRequestLine, isStatusLine } from "./head.ts";
import { Http1Malformed } from "./http1_malformed.ts";
import { latin1Text } from "./latin1.ts";
import { MAX_FIELDS, MAX_HEAD_BYTES, MAX_LINE_BYTES } from "./limits.ts";
import { LineScanner } from "./line_scanner.ts";

/** Which head comes: a request's, or a response's. */
export type HeadKind = "request" | "response";

/**
 * Collects one head from bytes split anywhere: its lines (as latin1 text) once its blank line
 * has come. Empty lines before a request line are skipped (RFC 9112 §2.2); a status line has
 * none. A start line that cannot become one is refused at once, not at its end, so bytes of
 * another protocol (a TLS hello) are told at their first bytes.
 */
export class HeadScanner {
  #kind: HeadKind;
  #line = new LineScanner({ limit: MAX_LINE_BYTES });
  #lines: string[] = [];
  #size = 0;

  constructor(kind: HeadKind) {
    this.#kind = kind;
  }

  /** True once a byte of the start line has come (an empty line before it is not one). */
  get started(): boolean {
    return this.#lines.length > 0 || this.#line.started;
  }

  /** Scans from `at`: the head's lines once its blank line has come, and where the rest begins. */
  scan(bytes: Uint8Array, at: number): { lines?: string[]; next: number } {
    let next = at;
    while (next < bytes.length) {
      const { line, next: after } = this.#line.scan(bytes, next);
      this.#size += after - next;
      next = after;
      if (this.#size > MAX_HEAD_BYTES) {
        throw new Http1Malformed(`the head is larger than ${MAX_HEAD_BYTES} bytes`);
      }
      if (line === undefined) {
        if (this.#lines.length === 0) this.#checkBeginning(this.#line.partial);
      } else if (line.length > 0) {
        this.#add(latin1Text(line));
      } else if (this.#lines.length > 0) {
        const lines = this.#lines;
        this.#lines = [];
        this.#size = 0;
        return { lines, next };
      } else if (this.#kind === "response") {
        throw new Http1Malformed("an empty line comes before the status line");
      }
    }
    return { next };
  }

  #add(line: string): void {
    if (this.#lines.length === 0 && !(this.#kind === "request" ? isRequestLine(line) : isStatusLine(line))) {
      throw new Http1Malformed(`the ${this.#kind === "request" ? "request" : "status"} line is not HTTP/1.1`);
    }
    if (this.#lines.length > MAX_FIELDS) {
      throw new Http1Malformed(`there are more than ${MAX_FIELDS} field lines`);
    }
    this.#lines.push(line);
  }

  #checkBeginning(partial: Uint8Array): void {
    const fits = this.#kind === "request" ? couldBeginRequest(partial) : couldBeginStatus(partial);
    if (!fits) {
      throw new Http1Malformed(`the ${this.#kind === "request" ? "request" : "status"} line is not HTTP/1.1`);
    }
  }
}

/** A method's characters, then its SP (what follows is read once the line is whole). */
function couldBeginRequest(partial: Uint8Array): boolean {
  for (let i = 0; i < partial.length; i++) {
    const b = partial[i]!;
    if (TCHAR[b]) continue;
    if (b === 0x20 && i > 0) return true;
    // A CR last may be an empty line's, or the request line's end, told once the LF comes.
    return b === 0x0d && i === partial.length - 1;
  }
  return true;
}

const HTTP_1 = [0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e]; // "HTTP/1."

function couldBeginStatus(partial: Uint8Array): boolean {
  for (let i = 0; i < Math.min(partial.length, HTTP_1.length); i++) {
    if (partial[i] !== HTTP_1[i]) return false;
  }
  return true;
}

/** Which bytes a token holds. */
const TCHAR = (() => {
  const table = new Uint8Array(256);
  for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
    table[c.charCodeAt(0)] = 1;
  }
  return table;
})();
