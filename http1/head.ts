import { type Header, headerValues, parseFieldLine } from "./fields.ts";
import { Http1Malformed } from "./http1_malformed.ts";
import { MAX_FIELDS } from "./limits.ts";

/** The versions a head may name: HTTP/1.0 and HTTP/1.1, in capitals. */
export type HttpVersion = "HTTP/1.0" | "HTTP/1.1";

/** A request's first line and fields. */
export interface RequestHead {
  readonly method: string;
  /** As the request line gives it: `/path?q`, `http://host/path`, `host:443`, `*`. */
  readonly target: string;
  readonly version: HttpVersion;
  readonly headers: readonly Header[];
}

/** A response's first line and fields. */
export interface ResponseHead {
  readonly version: HttpVersion;
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly Header[];
}

/** method SP request-target SP HTTP-version; the method is a token, matched in its own case. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([\x21-\x7e]+) (HTTP\/1\.[01])$/;

/** HTTP-version SP status-code [SP reason-phrase]; a missing reason is read as an empty one. */
const STATUS_LINE = /^(HTTP\/1\.[01]) ([1-9][0-9]{2})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;

/** Whether a whole line is a request line. */
export function isRequestLine(line: string): boolean {
  return REQUEST_LINE.test(line);
}

/** Whether a whole line is a status line. */
export function isStatusLine(line: string): boolean {
  return STATUS_LINE.test(line);
}

/**
 * Reads a request head from its lines (start line first, no blank line). Besides each line's own
 * grammar, a request may name Host once at most (RFC 9112 §3.2).
 */
export function parseRequestHead(lines: readonly string[]): RequestHead {
  const match = REQUEST_LINE.exec(lines[0] ?? "");
  if (!match) throw new Http1Malformed("the request line is not HTTP/1.1");
  const headers = parseFields(lines.slice(1));
  if (headerValues(headers, "host").length > 1) throw new Http1Malformed("the request names Host twice");
  return { method: match[1]!, target: match[2]!, version: match[3] as HttpVersion, headers };
}

/** Reads a response head from its lines (status line first, no blank line). */
export function parseResponseHead(lines: readonly string[]): ResponseHead {
  const match = STATUS_LINE.exec(lines[0] ?? "");
  if (!match) throw new Http1Malformed("the status line is not HTTP/1.1");
  return {
    version: match[1] as HttpVersion,
    status: Number(match[2]),
    reason: match[3] ?? "",
    headers: parseFields(lines.slice(1)),
  };
}

/** Field lines, each as `parseFieldLine` reads it, at most MAX_FIELDS of them. */
export function parseFields(lines: readonly string[]): Header[] {
  if (lines.length > MAX_FIELDS) throw new Http1Malformed(`there are more than ${MAX_FIELDS} field lines`);
  return lines.map(parseFieldLine);
}
