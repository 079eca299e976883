/**
 * HTTP/1.1 as RFC 9112 writes it, strictly, for every part of Link that reads it byte by byte:
 * the proxy, the door's framing watch, Link's own client and the endpoint's server. Heads (the
 * start line, field lines, limits on sizes), the body framing rules (a length, chunked, until
 * close, a tunnel after an upgrade or CONNECT), the chunked decoder, and one line reader that
 * keeps every byte after a line. Each reads two ways: pulled from a connection (`ConnReader`,
 * `readRequestHead`, `readBody`), or fed bytes as they pass (`MessageScanner`). What could be read
 * two ways (a bare CR, a folded line, two lengths, a length with chunked) is refused as
 * `Http1Malformed`. It imports nothing else of Link's.
 * @module
 */
/** What is not HTTP/1.1, or ends mid-message. */
export { endedMidway, Http1Malformed } from "./http1_malformed.ts";
/** The limits on a line, a head and its fields, a chunk size line and a trailer. */
export { MAX_CHUNK_LINE_BYTES, MAX_FIELDS, MAX_HEAD_BYTES, MAX_LINE_BYTES } from "./limits.ts";
/** One line from bytes split anywhere: HTTP's strict CR LF, or a bridge's LF. */
export { type LineEnd, LineScanner } from "./line_scanner.ts";
/** A connection read through one buffer: heads, bodies, lines, and the rest for a relay. */
export { type ByteSource, ConnReader } from "./conn_reader.ts";
/** Fields as they came, and reading them by name. */
export {
  expectsContinue,
  hasToken,
  type Header,
  headerValue,
  headerValues,
  listValues,
  parseFieldLine,
} from "./fields.ts";
/** Request and response heads, read from their lines. */
export {
  type HttpVersion,
  parseRequestHead,
  parseResponseHead,
  type RequestHead,
  type ResponseHead,
} from "./head.ts";
/** One head collected from bytes fed as they come. */
export { type HeadKind, HeadScanner } from "./head_scanner.ts";
/** The next head on a connection. */
export { readRequestHead, readResponseHead } from "./read_head.ts";
/** How a body is delimited, by the rules of RFC 9112 §6. */
export {
  type BodyFraming,
  chunkedAlone,
  contentLength,
  type MessageBody,
  requestFraming,
  responseFraming,
  transferCodings,
} from "./body_framing.ts";
/** A chunked body decoded from bytes fed as they come. */
export { ChunkedDecoder } from "./chunked_decoder.ts";
/** A body read from a connection by its framing. */
export { readBody } from "./read_body.ts";
/** The messages of one direction followed from bytes fed as they pass. */
export { type MessageEvents, MessageScanner } from "./message_scanner.ts";
/** A head as bytes, to write. */
export { encodeHead } from "./encode_head.ts";
/** A chunk as bytes, and the end of a chunked body, to write. */
export { encodeChunk, LAST_CHUNK } from "./encode_chunk.ts";
/** Text as bytes and back, a byte per character. */
export { latin1, latin1Text } from "./latin1.ts";
/** The reason phrase of a status line. */
export { reasonPhrase } from "./reason_phrase.ts";
