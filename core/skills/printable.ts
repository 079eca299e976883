const MAX_CHARS = 200;

/**
 * A name or line an agent could have written, safe to print at a terminal: control characters
 * (C0, C1, DEL), the marks that reorder or hide text (bidirectional overrides, zero-width ones)
 * and the backslash are written as `\u{..}` escapes, and it is cut at 200 characters, so no name
 * moves the cursor, rewrites the screen or passes for another.
 */
export function printable(text: string): string {
  let out = "";
  let count = 0;
  for (const ch of text) {
    if (++count > MAX_CHARS) return `${out}\u2026`;
    const cp = ch.codePointAt(0)!;
    out += ch === "\\" ? "\\\\" : hidden(cp) ? `\\u{${cp.toString(16)}}` : ch;
  }
  return out;
}

function hidden(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0xfeff ||
    cp === 0x2028 || cp === 0x2029;
}
