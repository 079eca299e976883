/** Where a code block runs: its opening fence line, from its first character to its closing fence's end. */
interface CodeBlock {
  start: number;
  end: number;
  fence: string;
}

const FENCE_CLOSE = "\n```";

/**
 * Splits an answer into messages of at most `limit` characters (UTF-16 code units): at a paragraph break if one is
 * near the limit, else a line break, else a space; never inside a ``` code block if it can be
 * helped. A code block longer than one message is closed at a line break and opened again in the
 * next, with its language.
 */
export function splitAnswer(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const [head, tail] = cut(rest, limit);
    parts.push(head);
    rest = tail;
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}

/** The first message of `text` and what is left. */
function cut(text: string, limit: number): [string, string] {
  const blocks = codeBlocks(text);
  const outside = (p: number) => blocks.every((b) => p < b.start || p >= b.end);
  for (const sep of ["\n\n", "\n", " "]) {
    const p = lastIndex(text, sep, limit - sep.length, (i) => i > 0 && outside(i));
    if (p > 0) return [text.slice(0, p), text.slice(p + sep.length)];
  }
  const block = blocks.find((b) => b.start < limit && b.end > limit);
  if (block) {
    const p = lastIndex(text, "\n", limit - FENCE_CLOSE.length, (i) => i > block.start + block.fence.length);
    if (p > 0) return [text.slice(0, p) + FENCE_CLOSE, `${block.fence}\n${text.slice(p + 1)}`];
  }
  const hard = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return [text.slice(0, hard), text.slice(hard)];
}

/** The last index of `sep` at or before `from` that `ok` accepts, or -1. */
function lastIndex(text: string, sep: string, from: number, ok: (i: number) => boolean): number {
  for (let i = text.lastIndexOf(sep, from); i >= 0; i = text.lastIndexOf(sep, i - 1)) {
    if (ok(i)) return i;
    if (i === 0) break;
  }
  return -1;
}

/** The fenced code blocks of a Markdown text; one left open runs to the end. */
function codeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { start: number; fence: string } | undefined;
  let at = 0;
  for (const line of text.split("\n")) {
    if (line.trimStart().startsWith("```")) {
      if (!open) open = { start: at, fence: line.trim() };
      else {
        blocks.push({ start: open.start, end: at + line.length, fence: open.fence });
        open = undefined;
      }
    }
    at += line.length + 1;
  }
  if (open) blocks.push({ start: open.start, end: text.length + 1, fence: open.fence });
  return blocks;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
