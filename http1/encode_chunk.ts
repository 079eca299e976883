/** The last chunk and an empty trailer section: the end of a chunked body. */
export const LAST_CHUNK: Uint8Array = new TextEncoder().encode("0\r\n\r\n");

/** Bytes as one chunk: their size in hex, CR LF, the bytes, CR LF. */
export function encodeChunk(bytes: Uint8Array): Uint8Array {
  const size = bytes.length.toString(16);
  const chunk = new Uint8Array(size.length + bytes.length + 4);
  for (let i = 0; i < size.length; i++) chunk[i] = size.charCodeAt(i);
  chunk.set([13, 10], size.length);
  chunk.set(bytes, size.length + 2);
  chunk.set([13, 10], size.length + 2 + bytes.length);
  return chunk;
}
