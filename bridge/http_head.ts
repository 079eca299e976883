/**
 * The parts of an HTTP/1.1 head that frame a message (PRC-11): the start line and the framing
 * headers. Nothing else of a head is kept, and nothing of a body is read; the door reads a
 * request's target only to know which answers come to proven callers alone.
 */

/** A message that cannot be framed: the tracker counts it as busy until the connection closes. */
export class Unframeable extends Error {
  override name = "Unframeable";
}

/** What frames one message. */
export interface FramingHead {
  /** The request's method, or undefined for a response. */
  method?: string;
  /** The request's target as its start line gives it, or undefined for a response. */
  target?: string;
  /** The response's status, or undefined for a request. */
  status?: number;
  /** Content-Length, when given (all copies agree). */
  contentLength?: number;
  /** Transfer-Encoding was given. */
  encoded: boolean;
  /** Its last coding is chunked. */
  chunked: boolean;
  /** An Upgrade header was given. */
  upgrade: boolean;
}

const LINE_LIMIT = 16 * 1024;
const HEAD_LIMIT = 64 * 1024;
const DECODER = new TextDecoder("latin1");

/** Collects one line at a time from bytes split anywhere, with a length limit. */
export class LineScanner {
  #text = "";
  #limit: number;

  constructor(limit = LINE_LIMIT) {
    this.#limit = limit;
  }

  /** True while part of a line is held. */
  get started(): boolean {
    return this.#text.length > 0;
  }

  /** The part of a line held so far. */
  get partial(): string {
    return this.#text;
  }

  /** Scans from `at`: the line (without CR LF) and where the rest begins, or just where it stopped. */
  scan(bytes: Uint8Array, at: number): { line?: string; next: number } {
    const end = bytes.indexOf(0x0a, at);
    const stop = end < 0 ? bytes.length : end;
    this.#text += DECODER.decode(bytes.subarray(at, stop));
    if (this.#text.length > this.#limit) throw new Unframeable("line too long");
    if (end < 0) return { next: bytes.length };
    const line = this.#text.endsWith("\r") ? this.#text.slice(0, -1) : this.#text;
    this.#text = "";
    return { line, next: end + 1 };
  }
}

/**
 * Collects a head line by line: empty lines before the start line are skipped, and a start line
 * that cannot begin as `startsWell` says is unframeable at once, not at its end.
 */
export class HeadCollector {
  #scanner = new LineScanner();
  #lines: string[] = [];
  #size = 0;
  #startsWell: (partial: string) => boolean;

  constructor(startsWell: (partial: string) => boolean) {
    this.#startsWell = startsWell;
  }

  /** True once any byte of a start line has come. */
  get started(): boolean {
    return this.#lines.length > 0 || this.#scanner.started;
  }

  /** Scans from `at`: the head's lines once its blank line has come, and where the rest begins. */
  scan(bytes: Uint8Array, at: number): { lines?: string[]; next: number } {
    let next = at;
    while (next < bytes.length) {
      const result = this.#scanner.scan(bytes, next);
      this.#size += result.next - next;
      next = result.next;
      if (this.#size > HEAD_LIMIT) throw new Unframeable("head too large");
      if (result.line === undefined) {
        const partial = this.#scanner.partial;
        if (this.#lines.length === 0 && partial !== "\r" && !this.#startsWell(partial)) {
          throw new Unframeable("not the start of an HTTP/1.x message");
        }
        continue;
      }
      if (result.line === "") {
        if (this.#lines.length === 0) continue;
        const lines = this.#lines;
        this.#lines = [];
        this.#size = 0;
        return { lines, next };
      }
      this.#lines.push(result.line);
    }
    return { next };
  }
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]*(?: |$)/;

/** Whether a partial line can begin a request. */
export function startsRequest(partial: string): boolean {
  return TOKEN.test(partial);
}

/** Whether a partial line can begin a response. */
export function startsResponse(partial: string): boolean {
  return "HTTP/1.".startsWith(partial) || partial.startsWith("HTTP/1.");
}

/** Reads the framing of a request head. */
export function parseRequestHead(lines: string[]): FramingHead {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]$/.exec(lines[0] ?? "");
  if (!match) throw new Unframeable("not an HTTP/1.x request line");
  return { method: match[1]!.toUpperCase(), target: match[2]!, ...parseFields(lines.slice(1)) };
}

/** Reads the framing of a response head. */
export function parseResponseHead(lines: string[]): FramingHead {
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? "");
  if (!match) throw new Unframeable("not an HTTP/1.x status line");
  return { status: Number(match[1]), ...parseFields(lines.slice(1)) };
}

function parseFields(lines: string[]): Omit<FramingHead, "method" | "status"> {
  const lengths: string[] = [];
  const codings: string[] = [];
  let upgrade = false;
  for (const line of lines) {
    if (line.startsWith(" ") || line.startsWith("\t")) throw new Unframeable("folded header line");
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Unframeable("header line without a name");
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-length") lengths.push(...value.split(",").map((v) => v.trim()));
    else if (name === "transfer-encoding") {
      codings.push(...value.toLowerCase().split(",").map((v) => v.trim()));
    } else if (name === "upgrade") upgrade = true;
  }
  const encoded = codings.some((c) => c !== "");
  const chunked = encoded && codings.filter((c) => c !== "").at(-1) === "chunked";
  return { contentLength: contentLength(lengths), encoded, chunked, upgrade };
}

function contentLength(values: string[]): number | undefined {
  if (values.length === 0) return undefined;
  const first = Number(values[0]);
  if (!values.every((v) => /^\d{1,15}$/.test(v) && Number(v) === first)) {
    throw new Unframeable("conflicting or invalid Content-Length");
  }
  return first;
}
