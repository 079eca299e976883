import { writeAll } from "../core/base/mod.ts";
import { type ByteConn, type ConnReader } from "./conn_reader.ts";
import { type Header, headerValue, headerValues, latin1 } from "./http_head.ts";

/** How a message's body is delimited. */
export type Framing =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" }
  | { readonly kind: "close" };

/**
 * A request's framing. Throws on what request smuggling is made of: both Content-Length and
 * Transfer-Encoding, a coding other than chunked, or lengths that disagree.
 */
export function requestFraming(headers: readonly Header[]): Framing {
  return framing(headers, { kind: "none" });
}

/** A response's framing, given the request's method (HEAD has no body) and the status. */
export function responseFraming(headers: readonly Header[], method: string, status: number): Framing {
  if (method === "HEAD" || status < 200 || status === 204 || status === 304) return { kind: "none" };
  return framing(headers, { kind: "close" });
}

function framing(headers: readonly Header[], otherwise: Framing): Framing {
  const codings = headerValues(headers, "transfer-encoding");
  const lengths = headerValues(headers, "content-length").flatMap((v) => v.split(",").map((s) => s.trim()));
  if (codings.length > 0) {
    if (lengths.length > 0) throw new Error("the message has both Content-Length and Transfer-Encoding");
    if (codings.join(",").trim().toLowerCase() !== "chunked") {
      throw new Error("the transfer coding is not chunked");
    }
    return { kind: "chunked" };
  }
  if (lengths.length === 0) return otherwise;
  if (!lengths.every((l) => /^\d{1,15}$/.test(l) && l === lengths[0])) {
    throw new Error("the Content-Length is not valid");
  }
  return { kind: "length", length: Number(lengths[0]) };
}

/** The header that announces a framing to the next hop, if any. */
export function framingHeader(framing: Framing): Header[] {
  if (framing.kind === "length") return [["Content-Length", String(framing.length)]];
  if (framing.kind === "chunked") return [["Transfer-Encoding", "chunked"]];
  return [];
}

/**
 * Copies a body from one side to the other as it arrives, chunk by chunk: a known length as
 * raw bytes, anything else re-chunked when `chunked` (each piece read becomes one chunk).
 */
export async function relayBody(
  from: ConnReader,
  framing: Framing,
  to: ByteConn,
  chunked: boolean,
): Promise<void> {
  const send = (bytes: Uint8Array) => writeAll(to, chunked ? asChunk(bytes) : bytes);
  if (framing.kind === "length") await copyExactly(from, framing.length, send);
  else if (framing.kind === "close") {
    for (let piece = await from.readSome(); piece; piece = await from.readSome()) await send(piece);
  } else if (framing.kind === "chunked") {
    while (true) {
      const line = await from.readLine();
      const size = /^[0-9a-f]{1,12}\s*(;.*)?$/i.test(line) ? parseInt(line, 16) : NaN;
      if (Number.isNaN(size)) throw new Error("a chunk size is not valid");
      if (size === 0) break;
      await copyExactly(from, size, send);
      if ((await from.readLine()) !== "") throw new Error("a chunk does not end where its size says");
    }
    // Trailers end the body; the proxy does not pass them on.
    while ((await from.readLine()) !== "") { /* skip a trailer */ }
  }
  if (chunked && framing.kind !== "none") await writeAll(to, latin1("0\r\n\r\n"));
}

async function copyExactly(
  from: ConnReader,
  length: number,
  send: (b: Uint8Array) => Promise<void>,
): Promise<void> {
  for (let left = length; left > 0;) {
    const piece = await from.readSome(left);
    if (!piece) throw new Error("the connection ended before the body did");
    left -= piece.length;
    await send(piece);
  }
}

function asChunk(bytes: Uint8Array): Uint8Array {
  const head = latin1(`${bytes.length.toString(16)}\r\n`);
  const chunk = new Uint8Array(head.length + bytes.length + 2);
  chunk.set(head);
  chunk.set(bytes, head.length);
  chunk.set([13, 10], head.length + bytes.length);
  return chunk;
}

/** Whether a message of this framing must be re-chunked for an HTTP/1.1 peer. */
export function needsChunking(framing: Framing): boolean {
  return framing.kind === "chunked" || framing.kind === "close";
}

/** Whether a request asks for "100 Continue" before it sends its body. */
export function expectsContinue(headers: readonly Header[]): boolean {
  return headerValue(headers, "expect")?.toLowerCase() === "100-continue";
}
