import type { Header } from "./fields.ts";
import { latin1 } from "./latin1.ts";

/** A head as bytes: the start line, then each field, then the blank line. */
export function encodeHead(startLine: string, headers: readonly Header[]): Uint8Array {
  let text = `${startLine}\r\n`;
  for (const [name, value] of headers) text += `${name}: ${value}\r\n`;
  return latin1(`${text}\r\n`);
}
