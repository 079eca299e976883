import { type Header, listValues } from "../http1/mod.ts";

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
  const named = listValues(headers, "connection").map((t) => t.toLowerCase());
  const drop = new Set([...HOP_BY_HOP, ...named]);
  return headers.filter(([name]) => !drop.has(name.toLowerCase()));
}
