import { writeAll } from "../core/base/mod.ts";
import {
  type BodyFraming,
  chunkedAlone,
  type ConnReader,
  encodeChunk,
  type Header,
  Http1Malformed,
  LAST_CHUNK,
  type MessageBody,
  readBody,
  requestFraming,
  type RequestHead,
  responseFraming,
  type ResponseHead,
} from "../http1/mod.ts";
import type { ByteConn } from "./byte_conn.ts";

/**
 * A request's framing as the proxy carries it: by the grammar's rules, and chunked alone, since
 * a coding beneath it would reach upstream undecoded once the proxy drops Transfer-Encoding.
 */
export function requestBody(head: RequestHead): MessageBody {
  const framing = requestFraming(head);
  if (framing.kind === "chunked") onlyChunked(head.headers);
  return framing;
}

/** A response's framing as the proxy carries it, given the request's method: chunked alone too. */
export function responseBody(head: ResponseHead, method: string): BodyFraming {
  const framing = responseFraming(head, method);
  if (framing.kind === "chunked" || framing.kind === "close") onlyChunked(head.headers);
  return framing;
}

function onlyChunked(headers: readonly Header[]): void {
  if (!chunkedAlone(headers)) throw new Http1Malformed("the transfer coding is not chunked");
}

/** The header that announces a framing to the next hop, if any. */
export function framingHeader(framing: BodyFraming): Header[] {
  if (framing.kind === "length") return [["Content-Length", String(framing.length)]];
  if (framing.kind === "chunked") return [["Transfer-Encoding", "chunked"]];
  return [];
}

/**
 * Copies a body from one side to the other as it arrives, piece by piece: a known length as
 * raw bytes, anything else re-chunked when `chunked` (each piece read becomes one chunk). The
 * proxy passes no trailers on.
 */
export async function relayBody(
  from: ConnReader<ByteConn>,
  framing: MessageBody,
  to: ByteConn,
  chunked: boolean,
): Promise<void> {
  for await (const piece of readBody(from, framing)) {
    if (piece.length > 0) await writeAll(to, chunked ? encodeChunk(piece) : piece);
  }
  if (chunked && framing.kind !== "none") await writeAll(to, LAST_CHUNK);
}

/** Whether a message of this framing must be re-chunked for an HTTP/1.1 peer. */
export function needsChunking(framing: BodyFraming): boolean {
  return framing.kind === "chunked" || framing.kind === "close";
}
