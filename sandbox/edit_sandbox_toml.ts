import { LinkError, parseToml } from "../core/base/mod.ts";
import { tomlLayout } from "./_toml_layout.ts";

/** A value a sandbox file holds. */
export type TomlValue = string | number | boolean | readonly TomlValue[];

/** One key to set (or remove, with `value` undefined) in one table of a sandbox file. */
export interface SandboxTomlChange {
  readonly table: readonly string[];
  readonly key: string;
  readonly value: TomlValue | undefined;
}

/**
 * Rewrites only the keys that change in a sandbox file's text, keeping every comment, blank line
 * and the spelling of every other line (GRT-4): a key's value is replaced where it stands, a new
 * key goes after its table's last key, a new table at the end. The result is read back and must
 * hold exactly the changes; if the file's shape defeats that (inline tables, say), CONFIG_INVALID.
 */
export function editSandboxToml(
  text: string,
  changes: readonly SandboxTomlChange[],
  path = "sandbox.toml",
): string {
  let lines = text.split("\n");
  for (const change of changes) lines = applyChange(lines, change);
  const result = lines.join("\n");
  const expected = JSON.parse(JSON.stringify(parseToml(text, path)));
  for (const change of changes) setIn(expected, change);
  if (canonical(parseToml(result, path)) !== canonical(expected)) {
    throw new LinkError(
      "CONFIG_INVALID",
      `Cannot change "${path}" in place: its layout is not one Link can edit`,
      {
        hint: `Make the change by hand in "${path}"`,
      },
    );
  }
  return result;
}

function applyChange(lines: string[], change: SandboxTomlChange): string[] {
  const { headers, entries } = tomlLayout(lines);
  const full = [...change.table, change.key];
  const entry = entries.find((e) => same([...e.table, ...e.key], full));
  if (entry) {
    if (change.value === undefined) return [...lines.slice(0, entry.start), ...lines.slice(entry.end + 1)];
    const first = lines[entry.start]!;
    const prefix = first.slice(0, entry.valueAt).replace(/\s*$/, " ");
    const comment = entry.comment ? ` ${entry.comment}` : "";
    const line = `${prefix}${formatValue(change.value)}${comment}`;
    return [...lines.slice(0, entry.start), line, ...lines.slice(entry.end + 1)];
  }
  if (change.value === undefined) return lines;
  const line = `${formatKey(change.key)} = ${formatValue(change.value)}`;
  const header = headers.find((h) => same(h.table, change.table));
  if (header || change.table.length === 0) {
    const inTable = entries.filter((e) => same(e.table, change.table) && e.start > (header?.line ?? -1));
    const after = inTable.length ? Math.max(...inTable.map((e) => e.end)) : (header?.line ?? -1);
    return [...lines.slice(0, after + 1), line, ...lines.slice(after + 1)];
  }
  const body = [...lines];
  while (body.length && body[body.length - 1] === "") body.pop();
  return [...body, ...(body.length ? [""] : []), `[${change.table.map(formatKey).join(".")}]`, line, ""];
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Writes a key bare when TOML allows, else quoted. */
export function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** Writes a value as TOML: strings as basic strings, arrays inline. */
export function formatValue(value: TomlValue): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `[${value.map(formatValue).join(", ")}]`;
}

function setIn(root: Record<string, unknown>, change: SandboxTomlChange): void {
  let node = root;
  for (const name of change.table) {
    if (typeof node[name] !== "object" || node[name] === null) node[name] = {};
    node = node[name] as Record<string, unknown>;
  }
  if (change.value === undefined) delete node[change.key];
  else node[change.key] = structuredClone(change.value);
}

/** JSON with keys sorted, so two parses compare by content alone. */
function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
        : v,
  );
}
