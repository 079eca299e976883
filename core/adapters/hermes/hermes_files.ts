/**
 * The two files Hermes reads from HERMES_HOME, as Link writes its part of them: config.yaml by
 * top-level section, .env by variable. Link reads no YAML: a section it owns is replaced whole,
 * every other line is kept as the harness or the person wrote it.
 */

/** A top-level YAML key line: `model:`, `platforms: {...}`; not indented, a comment or a list item. */
const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:/;

/** One section as YAML, in block style: strings double-quoted (JSON's escapes are YAML's), numbers and booleans bare. */
export function yamlSection(key: string, value: Record<string, unknown>): string {
  return [`${key}:`, ...yamlLines(value, 1)].join("\n") + "\n";
}

function yamlLines(value: Record<string, unknown>, depth: number): string[] {
  const pad = "  ".repeat(depth);
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      lines.push(`${pad}${key}:`, ...yamlLines(item as Record<string, unknown>, depth + 1));
    } else if (typeof item === "number" || typeof item === "boolean") {
      lines.push(`${pad}${key}: ${item}`);
    } else {
      lines.push(`${pad}${key}: ${JSON.stringify(String(item))}`);
    }
  }
  return lines;
}

/**
 * The config with Link's sections in it: each section of the text whose key Link owns is replaced
 * by Link's (where it was: its key line and the indented lines under it), the ones missing are added
 * at the end, and every other line, comments and blank lines among them, is left as it was.
 */
export function mergeYamlSections(text: string, sections: readonly string[]): string {
  const owned = new Map(sections.map((s) => [TOP_KEY.exec(s)![1]!, s.replace(/\n$/, "")]));
  const out: string[] = [];
  const placed = new Set<string>();
  let inOwned = false;
  // Blank lines after an owned section's lines: dropped if more of it follows, kept if not.
  let blanks: string[] = [];
  for (const line of text.split("\n")) {
    const key = TOP_KEY.exec(line)?.[1];
    if (inOwned && key === undefined && line.trim() === "") {
      blanks.push(line);
      continue;
    }
    if (inOwned && key === undefined && /^\s/.test(line)) {
      blanks = [];
      continue;
    }
    out.push(...blanks);
    blanks = [];
    inOwned = key !== undefined && owned.has(key);
    if (!inOwned) out.push(line);
    else if (!placed.has(key!)) {
      out.push(owned.get(key!)!);
      placed.add(key!);
    }
  }
  while (out.length > 0 && out.at(-1) === "") out.pop();
  for (const [key, section] of owned) if (!placed.has(key)) out.push(section);
  return `${out.join("\n")}\n`;
}

/** The .env with Link's variables set (where they were, else at the end), every other line kept. */
export function mergeEnv(text: string, owned: Readonly<Record<string, string>>): string {
  const out: string[] = [];
  const placed = new Set<string>();
  for (const line of text.split("\n")) {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name !== undefined && name in owned) {
      if (!placed.has(name)) out.push(`${name}=${owned[name]}`);
      placed.add(name);
      continue;
    }
    out.push(line);
  }
  while (out.length > 0 && out.at(-1) === "") out.pop();
  for (const [name, value] of Object.entries(owned)) if (!placed.has(name)) out.push(`${name}=${value}`);
  return `${out.join("\n")}\n`;
}
