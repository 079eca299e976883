import type { ConnReader } from "./conn_reader.ts";
import { parseRequestHead, parseResponseHead, type RequestHead, type ResponseHead } from "./head.ts";
import { endedMidway } from "./http1_malformed.ts";
import { type HeadKind, HeadScanner } from "./head_scanner.ts";

/**
 * The next request head on a connection. Null when the peer ends before one begins; throws
 * Http1Malformed on one that is not HTTP/1.1 or does not end. `started` is called at each read
 * that brings a byte of it (an empty line before it counts), for a deadline on its whole.
 */
export async function readRequestHead(
  reader: ConnReader,
  options: { started?: () => void } = {},
): Promise<RequestHead | null> {
  const lines = await readHeadLines(reader, "request", options.started);
  return lines && parseRequestHead(lines);
}

/** The next response head on a connection, as readRequestHead reads a request's. */
export async function readResponseHead(reader: ConnReader): Promise<ResponseHead | null> {
  const lines = await readHeadLines(reader, "response");
  return lines && parseResponseHead(lines);
}

async function readHeadLines(
  reader: ConnReader,
  kind: HeadKind,
  started: () => void = () => {},
): Promise<string[] | null> {
  const scanner = new HeadScanner(kind);
  for (;;) {
    if (reader.buffered > 0) {
      started();
      const { lines, next } = scanner.scan(reader.bytes, 0);
      reader.consume(next);
      if (lines) return lines;
    }
    if (!(await reader.fill())) {
      if (!scanner.started) return null;
      throw endedMidway("a head");
    }
  }
}
