/** Where each table and key of a TOML text sits, by line, for editing it in place. */
export interface TomlEntry {
  /** The table the key is in ([] for the top). */
  readonly table: readonly string[];
  /** The key's own path (dotted keys give several names). */
  readonly key: readonly string[];
  /** First and last line (0-based) the key and its value take. */
  readonly start: number;
  readonly end: number;
  /** Column where the value begins on the first line. */
  readonly valueAt: number;
  /** A comment after a one-line value, kept on edit. */
  readonly comment: string;
}

/** A table header: its path and line. */
export interface TomlHeader {
  readonly table: readonly string[];
  readonly line: number;
}

/** Reads the layout of TOML text: headers and key lines, values spanning lines included. */
export function tomlLayout(lines: readonly string[]): { headers: TomlHeader[]; entries: TomlEntry[] } {
  const headers: TomlHeader[] = [];
  const entries: TomlEntry[] = [];
  let table: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (trimmed.startsWith("[")) {
      const inner = /^\[\[?([^\]]*)\]\]?/.exec(trimmed)?.[1] ?? "";
      table = splitKey(inner);
      headers.push({ table, line: i });
      continue;
    }
    const eq = keyEnd(line);
    if (eq < 0) continue;
    const key = splitKey(line.slice(0, eq));
    const scan = scanValue(lines, i, eq + 1);
    entries.push({ table, key, start: i, end: scan.end, valueAt: eq + 1, comment: scan.comment });
    i = scan.end;
  }
  return { headers, entries };
}

/** Splits a dotted key ("a.b", '"." ', "teams.'x'") into names. */
export function splitKey(text: string): string[] {
  const names: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of text.trim()) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ".") {
      names.push(current.trim());
      current = "";
    } else current += ch;
  }
  names.push(current.trim());
  return names;
}

/** The column of the "=" ending a key, outside quotes; -1 when the line holds none. */
function keyEnd(line: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "=") return i;
    else if (ch === "#") return -1;
  }
  return -1;
}

/** Follows a value from a column to its last line: brackets, braces and strings of every kind. */
function scanValue(lines: readonly string[], start: number, col: number): { end: number; comment: string } {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    for (let j = i === start ? col : 0; j < line.length; j++) {
      const ch = line[j]!;
      if (quote) {
        if (ch === "\\" && quote.startsWith('"')) j++;
        else if (line.startsWith(quote, j)) {
          j += quote.length - 1;
          quote = undefined;
        }
        continue;
      }
      if (line.startsWith('"""', j) || line.startsWith("'''", j)) {
        quote = line.slice(j, j + 3);
        j += 2;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "[" || ch === "{") depth++;
      else if (ch === "]" || ch === "}") depth--;
      else if (ch === "#") {
        if (depth === 0 && i === start) return { end: i, comment: line.slice(j) };
        break;
      }
    }
    if (depth <= 0 && !quote) return { end: i, comment: "" };
  }
  return { end: lines.length - 1, comment: "" };
}
