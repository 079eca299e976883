import { type Header, headerValues, listValues, TOKEN, trimWhitespace } from "./fields.ts";
import type { HttpVersion, RequestHead, ResponseHead } from "./head.ts";
import { Http1Malformed } from "./http1_malformed.ts";

/** How the body after a head is delimited (RFC 9112 §6.3). */
export type BodyFraming =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" }
  /** A response that ends when the connection does. */
  | { readonly kind: "close" }
  /** Switched protocols or a CONNECT tunnel: what follows is not HTTP. */
  | { readonly kind: "tunnel" };

/** A framing a body can be read by: every one but a tunnel's, which is no longer HTTP. */
export type MessageBody = Exclude<BodyFraming, { kind: "tunnel" }>;

/**
 * A request's framing. Throws Http1Malformed on what request smuggling is made of: Content-Length
 * with Transfer-Encoding, lengths that disagree or are no number, a last coding other than
 * chunked, chunked twice, Transfer-Encoding in HTTP/1.0. CONNECT has no body.
 */
export function requestFraming(head: RequestHead): MessageBody {
  const { codings, length } = framingFields(head.headers, head.version);
  if (head.method === "CONNECT") return { kind: "none" };
  if (codings.length > 0) {
    if (codings.at(-1) !== "chunked") {
      throw new Http1Malformed("the request's last transfer coding is not chunked");
    }
    return { kind: "chunked" };
  }
  return length === undefined ? { kind: "none" } : { kind: "length", length };
}

/**
 * A response's framing, given the method of the request it answers: none after HEAD and for 1xx,
 * 204 and 304; a tunnel after 101 and after a 2xx to CONNECT; else chunked, a length, or until
 * the connection closes. Throws as requestFraming does, for the same fields.
 */
export function responseFraming(head: ResponseHead, method: string): BodyFraming {
  const { codings, length } = framingFields(head.headers, head.version);
  const status = head.status;
  if (status === 101 || (method === "CONNECT" && status >= 200 && status < 300)) return { kind: "tunnel" };
  if (method === "HEAD" || status < 200 || status === 204 || status === 304) return { kind: "none" };
  if (codings.length > 0) return codings.at(-1) === "chunked" ? { kind: "chunked" } : { kind: "close" };
  return length === undefined ? { kind: "close" } : { kind: "length", length };
}

/** The framing fields of any head, checked whatever its body turns out to be. */
function framingFields(
  headers: readonly Header[],
  version: HttpVersion,
): { codings: string[]; length?: number } {
  const coded = headerValues(headers, "transfer-encoding").length > 0;
  const length = contentLength(headers);
  if (!coded) return { codings: [], length };
  if (length !== undefined) {
    throw new Http1Malformed("the message has both Content-Length and Transfer-Encoding");
  }
  if (version === "HTTP/1.0") throw new Http1Malformed("an HTTP/1.0 message has Transfer-Encoding");
  return { codings: transferCodings(headers) };
}

/**
 * The transfer codings, lowercase, in the order they were applied. Each is a token with its
 * parameters; chunked takes none, and comes once, last; a Transfer-Encoding naming no coding is
 * refused.
 */
export function transferCodings(headers: readonly Header[]): string[] {
  const given = headerValues(headers, "transfer-encoding").length > 0;
  const codings = listValues(headers, "transfer-encoding").map((element) => {
    const [name = "", ...params] = element.split(";").map(trimWhitespace);
    if (!TOKEN.test(name) || !params.every((p) => PARAMETER.test(p))) {
      throw new Http1Malformed("a transfer coding is not valid");
    }
    const coding = name.toLowerCase();
    if (coding === "chunked" && params.length > 0) throw new Http1Malformed("chunked has parameters");
    return coding;
  });
  if (given && codings.length === 0) throw new Http1Malformed("Transfer-Encoding names no coding");
  const chunked = codings.filter((c) => c === "chunked").length;
  if (chunked > 1) throw new Http1Malformed("chunked is given twice");
  if (chunked === 1 && codings.at(-1) !== "chunked") {
    throw new Http1Malformed("chunked is not the last coding");
  }
  return codings;
}

/**
 * Whether a body is coded by chunked alone, or not at all: what a reader that decodes no other
 * coding (the proxy, the endpoint's server) can take, since it drops Transfer-Encoding.
 */
export function chunkedAlone(headers: readonly Header[]): boolean {
  const codings = transferCodings(headers);
  return codings.length === 0 || (codings.length === 1 && codings[0] === "chunked");
}

/** A parameter: token = ( token / quoted-string ). */
const PARAMETER =
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*=[ \t]*(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t \x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t \x21-\x7e\x80-\xff])*")$/;

/**
 * The Content-Length, or undefined when none is given. Repeats (`5, 5`, or the field twice) are
 * taken when they are the same digits; anything else is refused.
 */
export function contentLength(headers: readonly Header[]): number | undefined {
  const values = headerValues(headers, "content-length").flatMap((v) => v.split(",")).map(trimWhitespace);
  if (values.length === 0) return undefined;
  if (!values.every((v) => /^[0-9]{1,15}$/.test(v) && v === values[0])) {
    throw new Http1Malformed("the Content-Length is not valid");
  }
  return Number(values[0]);
}
