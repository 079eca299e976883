import { Http1Malformed } from "./http1_malformed.ts";

/** A field as it came: name and value, in order, repeats kept. */
export type Header = readonly [name: string, value: string];

/** A token (RFC 9110 §5.6.2): a method, a field name, a transfer coding. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A field value's characters: visible ones, obs-text, and SP or HTAB between them. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * One field line as RFC 9112 §5 writes it: a token, the colon right after it, and a value of
 * visible characters, trimmed of SP and HTAB. A line folded onto the one before (obs-fold),
 * whitespace before the colon, and a control character (NUL, a bare CR) are refused: each could
 * show a field to one reader and hide it from the next.
 */
export function parseFieldLine(line: string): Header {
  const colon = line.indexOf(":");
  const name = colon < 0 ? line : line.slice(0, colon);
  if (!TOKEN.test(name)) {
    const first = line.charCodeAt(0);
    if (first === 0x20 || first === 0x09) throw new Http1Malformed("a field line is folded (obs-fold)");
    if (colon < 0) throw new Http1Malformed("a field line has no colon");
    if (/[ \t]$/.test(name)) throw new Http1Malformed("a field name is followed by whitespace");
    throw new Http1Malformed("a field name is not a token");
  }
  if (colon < 0) throw new Http1Malformed("a field line has no colon");
  const value = trimWhitespace(line.slice(colon + 1));
  if (!FIELD_VALUE.test(value)) throw new Http1Malformed("a field value holds a control character");
  return [name, value];
}

/** Trims SP and HTAB only: never the other characters String.trim() takes, such as 0xA0. */
export function trimWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** The first value of a field, by name in any case. */
export function headerValue(headers: readonly Header[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/** Every value of a field, by name in any case. */
export function headerValues(headers: readonly Header[], name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/**
 * The elements of a comma-separated field over all its lines (RFC 9110 §5.6.1), trimmed, empty
 * ones dropped; a comma inside a quoted string is its element's.
 */
export function listValues(headers: readonly Header[], name: string): string[] {
  return headerValues(headers, name).flatMap(splitList).map(trimWhitespace).filter((v) => v !== "");
}

function splitList(value: string): string[] {
  if (!value.includes('"')) return value.split(",");
  const elements: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      elements.push(value.slice(start, i));
      start = i + 1;
    }
  }
  elements.push(value.slice(start));
  return elements;
}

/** Whether a comma-separated field (Connection) holds a token, in any case. */
export function hasToken(headers: readonly Header[], name: string, token: string): boolean {
  return listValues(headers, name).some((t) => t.toLowerCase() === token);
}

/** Whether a request asks for "100 Continue" before it sends its body. */
export function expectsContinue(headers: readonly Header[]): boolean {
  return headerValue(headers, "expect")?.toLowerCase() === "100-continue";
}
