const DROPPED = ["script", "style", "noscript", "template", "svg", "canvas", "iframe", "head"];
const BLOCKS =
  "p|div|section|article|main|header|footer|nav|aside|blockquote|pre|table|tr|ul|ol|dl|dd|dt|form|figure|figcaption|hr";
const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
  copy: "\u00a9",
  reg: "\u00ae",
  laquo: "\u00ab",
  raquo: "\u00bb",
  rsquo: "\u2019",
  lsquo: "\u2018",
  rdquo: "\u201d",
  ldquo: "\u201c",
  middot: "\u00b7",
  bull: "\u2022",
};

/**
 * Reduces an HTML page to readable text: scripts, styles and the head are dropped (the title
 * kept as a heading), blocks become paragraphs, headings "#", list items "-", links
 * "[text](url)" resolved against the page's address, and entities decoded.
 */
export function htmlToText(html: string, baseUrl?: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  let text = html.replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of DROPPED) text = text.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}\\s*>`, "gi"), "");
  text = text
    .replace(/<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (...m) => {
      const label = stripTags(m[5] as string).trim();
      const href = link(decodeEntities((m[2] ?? m[3] ?? m[4] ?? "") as string), baseUrl);
      return href === undefined || label === "" ? label : `[${label}](${href})`;
    })
    .replace(/<h([1-6])\b[^>]*>/gi, (_m, level: string) => `\n\n${"#".repeat(Number(level))} `)
    .replace(/<\/h[1-6]\s*>/gi, "\n\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(new RegExp(`</?(?:${BLOCKS})\\b[^>]*>`, "gi"), "\n\n")
    .replace(/<\/t[dh]\s*>/gi, "\t");
  text = decodeEntities(stripTags(text));
  const lines = text.split("\n").map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim());
  const body = lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
  const heading = title === undefined ? "" : decodeEntities(stripTags(title)).replace(/\s+/g, " ").trim();
  return heading === "" ? body : `# ${heading}\n\n${body}`;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "");
}

function link(href: string, base: string | undefined): string | undefined {
  if (href.startsWith("#") || href.startsWith("javascript:")) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:"
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}
