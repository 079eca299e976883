import type { MessageBody } from "./body_framing.ts";
import { ChunkedDecoder } from "./chunked_decoder.ts";
import type { ConnReader } from "./conn_reader.ts";
import { endedMidway } from "./http1_malformed.ts";

/**
 * A body's bytes as they come, decoded from its framing: views valid until the next read, so
 * each is used (written on, copied) before the next is asked for. Throws Http1Malformed on a bad
 * chunk and when the peer ends before a body of known end does.
 */
export async function* readBody(reader: ConnReader, framing: MessageBody): AsyncGenerator<Uint8Array> {
  if (framing.kind === "length") {
    for (let left = framing.length; left > 0;) {
      const piece = await reader.readSome(left);
      if (!piece) throw endedMidway("a body");
      left -= piece.length;
      yield piece;
    }
  } else if (framing.kind === "chunked") {
    const decoder = new ChunkedDecoder();
    while (!decoder.done) {
      if (reader.buffered === 0 && !(await reader.fill())) throw endedMidway("a chunked body");
      const { data, next } = decoder.decode(reader.bytes, 0);
      reader.consume(next);
      if (data) yield data;
    }
  } else if (framing.kind === "close") {
    for (let piece = await reader.readSome(); piece; piece = await reader.readSome()) yield piece;
  }
}
