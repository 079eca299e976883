/**
 * A message's text as Telegram renders it from `parse_mode`: the plain text and its entities, or
 * Telegram's "can't parse entities" error. HTML with the tags the Bot API lists; MarkdownV2 with
 * its reserved characters; no parse mode is the text as sent. Offsets and lengths are in UTF-16
 * code units, as the Bot API counts them.
 */

/** A formatting entity of a rendered text. */
export interface TgEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

/** A text rendered, or why Telegram could not. */
export type Rendered = { ok: true; text: string; entities: TgEntity[] } | { ok: false; reason: string };

/** Renders `source` as `parseMode` asks ("HTML", "MarkdownV2", "Markdown", or none). */
export function renderText(source: string, parseMode: string | undefined): Rendered {
  if (parseMode === undefined || parseMode === "") return { ok: true, text: source, entities: [] };
  const mode = parseMode.toLowerCase();
  if (mode === "html") return renderHtml(source);
  if (mode === "markdownv2") return renderMarkdownV2(source);
  if (mode === "markdown") return renderMarkdownV2(source.replace(/[~>#+\-=|{}.!]/g, "\\$&"));
  return { ok: false, reason: `Unsupported parse_mode` };
}

const HTML_TAGS: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};

const HTML_ESCAPES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function renderHtml(source: string): Rendered {
  let text = "";
  const entities: TgEntity[] = [];
  const open: { tag: string; entity: TgEntity }[] = [];
  const bytes = new TextEncoder();
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    if (c === "<") {
      const end = source.indexOf(">", i);
      if (end < 0) {
        return cannotParse(`Unclosed start tag at byte offset ${bytes.encode(source.slice(0, i)).length}`);
      }
      const inner = source.slice(i + 1, end).trim();
      const at = bytes.encode(source.slice(0, i)).length;
      if (inner.startsWith("/")) {
        const tag = inner.slice(1).trim().toLowerCase();
        const top = open.pop();
        if (!top || top.tag !== tag) {
          return cannotParse(
            `Unmatched end tag at byte offset ${at}, expected "</${top?.tag ?? ""}>", found "</${tag}>"`,
          );
        }
        top.entity.length = text.length - top.entity.offset;
        if (top.entity.length > 0) entities.push(top.entity);
      } else {
        const tag = (/^[a-zA-Z-]+/.exec(inner)?.[0] ?? "").toLowerCase();
        const type = HTML_TAGS[tag];
        if (!type) return cannotParse(`Unsupported start tag "${tag}" at byte offset ${at}`);
        const entity: TgEntity = { type, offset: text.length, length: 0 };
        const href = /href\s*=\s*"([^"]*)"/.exec(inner)?.[1];
        if (tag === "a" && href !== undefined) entity.url = href;
        if (tag === "a" && href === undefined) entity.type = "text_link_missing";
        open.push({ tag, entity });
      }
      i = end + 1;
    } else if (c === "&") {
      const end = source.indexOf(";", i);
      const name = end < 0 ? "" : source.slice(i + 1, end);
      const numeric = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(name);
      if (HTML_ESCAPES[name] !== undefined) {
        text += HTML_ESCAPES[name];
        i = end + 1;
      } else if (numeric) {
        const n = numeric[1]!;
        text += String.fromCodePoint(n.startsWith("x") ? parseInt(n.slice(1), 16) : parseInt(n, 10));
        i = end + 1;
      } else {
        text += c;
        i++;
      }
    } else {
      text += c;
      i++;
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) return cannotParse(`Can't find end tag corresponding to start tag "${unclosed.tag}"`);
  return { ok: true, text, entities: entities.filter((e) => e.type !== "text_link_missing").sort(byOffset) };
}

const MARKDOWN_RESERVED = "_*[]()~`>#+-=|{}.!";

const MARKDOWN_MARKS: [string, string][] = [
  ["||", "spoiler"],
  ["__", "underline"],
  ["*", "bold"],
  ["_", "italic"],
  ["~", "strikethrough"],
];

function renderMarkdownV2(source: string): Rendered {
  let text = "";
  const entities: TgEntity[] = [];
  const open: { mark: string; entity: TgEntity }[] = [];
  const bytes = new TextEncoder();
  for (let i = 0; i < source.length;) {
    const c = source[i]!;
    const at = bytes.encode(source.slice(0, i)).length;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined) return cannotParse(`Character '\\' at byte offset ${at} is not escaped`);
      text += next;
      i += 2;
      continue;
    }
    if (source.startsWith("```", i)) {
      const end = source.indexOf("```", i + 3);
      if (end < 0) return cannotParse(`Can't find end of Pre entity at byte offset ${at}`);
      let body = source.slice(i + 3, end);
      const newline = body.indexOf("\n");
      const language = newline > 0 ? body.slice(0, newline) : "";
      if (newline >= 0 && /^[\w+-]*$/.test(language)) body = body.slice(newline + 1);
      const entity: TgEntity = { type: "pre", offset: text.length, length: 0 };
      if (language) entity.language = language;
      text += body.replace(/\\([`\\])/g, "$1");
      entity.length = text.length - entity.offset;
      entities.push(entity);
      i = end + 3;
      continue;
    }
    if (c === "`") {
      const end = source.indexOf("`", i + 1);
      if (end < 0) return cannotParse(`Can't find end of Code entity at byte offset ${at}`);
      const entity: TgEntity = { type: "code", offset: text.length, length: 0 };
      text += source.slice(i + 1, end).replace(/\\([`\\])/g, "$1");
      entity.length = text.length - entity.offset;
      entities.push(entity);
      i = end + 1;
      continue;
    }
    if (c === "[") {
      const close = source.indexOf("](", i);
      const end = close < 0 ? -1 : source.indexOf(")", close);
      if (close < 0 || end < 0) return cannotParse(`Can't find end of TextUrl entity at byte offset ${at}`);
      const inner = renderMarkdownV2(source.slice(i + 1, close));
      if (!inner.ok) return inner;
      const entity: TgEntity = {
        type: "text_link",
        offset: text.length,
        length: inner.text.length,
        url: source.slice(close + 2, end),
      };
      for (const e of inner.entities) entities.push({ ...e, offset: e.offset + text.length });
      text += inner.text;
      entities.push(entity);
      i = end + 1;
      continue;
    }
    const mark = MARKDOWN_MARKS.find(([m]) => source.startsWith(m, i));
    if (mark) {
      const [m, type] = mark;
      if (open.at(-1)?.mark === m) {
        const top = open.pop()!;
        top.entity.length = text.length - top.entity.offset;
        if (top.entity.length > 0) entities.push(top.entity);
      } else {
        open.push({ mark: m, entity: { type, offset: text.length, length: 0 } });
      }
      i += m.length;
      continue;
    }
    if (MARKDOWN_RESERVED.includes(c)) {
      return cannotParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    }
    text += c;
    i++;
  }
  const unclosed = open.at(-1);
  if (unclosed) {
    const name = unclosed.entity.type[0]!.toUpperCase() + unclosed.entity.type.slice(1);
    return cannotParse(`Can't find end of ${name} entity at byte offset ${unclosed.entity.offset}`);
  }
  return { ok: true, text, entities: entities.sort(byOffset) };
}

function byOffset(a: TgEntity, b: TgEntity): number {
  return a.offset - b.offset || b.length - a.length;
}

function cannotParse(reason: string): Rendered {
  return { ok: false, reason: `can't parse entities: ${reason}` };
}
