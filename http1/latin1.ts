/** Text as bytes, one byte per character: how heads are read, so they go on byte for byte. */
export function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Bytes as text, one character per byte (ISO-8859-1, not the windows-1252 a TextDecoder calls
 * "latin1"), so `latin1()` gives the same bytes back.
 */
export function latin1Text(bytes: Uint8Array): string {
  let text = "";
  // apply takes the bytes as they are; a spread would copy them into an array first (ten times slower).
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 4096) as unknown as number[]);
  }
  return text;
}
