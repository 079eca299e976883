/** A header as it came: name and value, in order, repeats kept. */
export type Header = readonly [name: string, value: string];

/** A request's first line and headers. */
export interface RequestHead {
  readonly method: string;
  readonly target: string;
  readonly version: "HTTP/1.0" | "HTTP/1.1";
  readonly headers: readonly Header[];
}

/** A response's first line and headers. */
export interface ResponseHead {
  readonly version: "HTTP/1.0" | "HTTP/1.1";
  readonly status: number;
  readonly reason: string;
  readonly headers: readonly Header[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Reads a request head (text up to its blank line); throws with what is wrong. */
export function parseRequestHead(text: string): RequestHead {
  const [line = "", ...rest] = text.split("\r\n").slice(0, -2);
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) (HTTP\/1\.[01])$/.exec(line);
  if (!match) throw new Error("the request line is not HTTP/1.1");
  return {
    method: match[1]!,
    target: match[2]!,
    version: match[3] as RequestHead["version"],
    headers: parseHeaders(rest),
  };
}

/** Reads a response head; throws with what is wrong. */
export function parseResponseHead(text: string): ResponseHead {
  const [line = "", ...rest] = text.split("\r\n").slice(0, -2);
  const match = /^(HTTP\/1\.[01]) (\d{3})(?: ([^\r\n]*))?$/.exec(line);
  if (!match) throw new Error("the response line is not HTTP/1.1");
  return {
    version: match[1] as ResponseHead["version"],
    status: Number(match[2]),
    reason: match[3] ?? "",
    headers: parseHeaders(rest),
  };
}

function parseHeaders(lines: readonly string[]): Header[] {
  if (lines.length > 200) throw new Error("there are too many headers");
  return lines.map((line) => {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    // No folded lines or bare control characters: either could hide a header from one side.
    // deno-lint-ignore no-control-regex
    if (colon <= 0 || !TOKEN.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(value)) {
      throw new Error("a header is malformed");
    }
    return [name, value] as const;
  });
}

/** The first value of a header, by name in any case. */
export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** Every value of a header, by name in any case. */
export function headerValues(headers: readonly Header[], name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** Whether a comma-separated header (Connection) holds a token, in any case. */
export function hasToken(headers: readonly Header[], name: string, token: string): boolean {
  return headerValues(headers, name).some((v) => v.split(",").some((t) => t.trim().toLowerCase() === token));
}

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  "expect",
  "host",
];

/**
 * The headers that belong to the message, not to one hop: drops hop-by-hop headers, those the
 * Connection header names, and the framing and Host the proxy sets again itself.
 */
export function endToEndHeaders(headers: readonly Header[]): Header[] {
  const named = headerValues(headers, "connection").flatMap((v) =>
    v.split(",").map((t) => t.trim().toLowerCase())
  );
  const drop = new Set([...HOP_BY_HOP, ...named]);
  return headers.filter(([name]) => !drop.has(name.toLowerCase()));
}

/** A head as bytes: the start line, then each header, then the blank line. */
export function encodeHead(startLine: string, headers: readonly Header[]): Uint8Array {
  let text = `${startLine}\r\n`;
  for (const [name, value] of headers) text += `${name}: ${value}\r\n`;
  return latin1(`${text}\r\n`);
}

/** Text as bytes, one byte per character (heads were read the same way). */
export function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
