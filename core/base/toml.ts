import { parse, stringify, TomlError } from "smol-toml";
import { z } from "zod";
import { LinkError } from "./errors.ts";
import { readTextIfExists } from "./atomic_write.ts";

/** Parses TOML text; a syntax error becomes CONFIG_INVALID naming the file and line. */
export function parseToml(text: string, path = "<text>"): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const first = err.message.split("\n")[0] ?? err.message;
    throw new LinkError("CONFIG_INVALID", `Cannot read "${path}": line ${err.line}: ${first}`, {
      hint: `Fix the TOML syntax on line ${err.line} of "${path}", then run the command again`,
      cause: err,
    });
  }
}

/** Writes a plain object as TOML. */
export function stringifyToml(value: Record<string, unknown>): string {
  return stringify(value);
}

/**
 * Finds the line (1-based) of a key path in TOML text: its table header, then the key in that
 * table. Good enough to point a person at the setting; returns undefined when not found.
 */
export function lineOfKey(text: string, path: readonly PropertyKey[]): number | undefined {
  const lines = text.split("\n");
  const keys = path.map(String);
  for (let split = keys.length; split >= 0; split--) {
    const table = keys.slice(0, split);
    const rest = keys.slice(split);
    const found = findInTable(lines, table, rest);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findInTable(lines: string[], table: string[], rest: string[]): number | undefined {
  let inTable = table.length === 0;
  const header = table.map(quoteKey).join(".");
  const key = rest.map(quoteKey).join(".");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    const h = /^\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (h) {
      inTable = normalizeKey(h[1]!) === header;
      if (inTable && rest.length === 0) return i + 1;
      continue;
    }
    if (!inTable || rest.length === 0) continue;
    const k = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\- ]+?))\s*=/.exec(line);
    if (k && normalizeKey(k[1]!) === key) return i + 1;
  }
  return undefined;
}

function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function normalizeKey(raw: string): string {
  return raw.split(/\s*\.\s*(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((part) => {
    const t = part.trim();
    if (/^'.*'$/.test(t)) return quoteKey(t.slice(1, -1));
    if (/^".*"$/.test(t)) return quoteKey(JSON.parse(t));
    return t;
  }).join(".");
}

/**
 * Checks parsed TOML against a schema. Each problem names the file, the line and the key, so
 * a person can go straight to it.
 */
export function validateToml<S extends z.ZodType>(
  schema: S,
  text: string,
  path: string,
  hint = "Fix these settings, then run the command again",
): z.infer<S> {
  const result = schema.safeParse(parseToml(text, path));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, text));
  throw new LinkError("CONFIG_INVALID", `Cannot load "${path}": ${problems.join("; ")}`, {
    hint: `${hint}:\n${problems.map((p) => `  ${path}:${p}`).join("\n")}`,
  });
}

function describeIssue(issue: z.core.$ZodIssue, text: string): string {
  const keys = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
  const line = lineOfKey(text, keys) ?? lineOfKey(text, issue.path) ?? 1;
  const name = keys.length ? keys.map(String).join(".") : "(top)";
  if (issue.code === "unrecognized_keys") {
    return `line ${line}: key "${
      issue.keys.map((k) => [...issue.path, k].join(".")).join('", "')
    }" is not known`;
  }
  return `line ${line}: key "${name}": ${issue.message}`;
}

/** Reads and validates a TOML file; a missing file reads as empty (every default). */
export async function loadToml<S extends z.ZodType>(schema: S, path: string): Promise<z.infer<S>> {
  return validateToml(schema, (await readTextIfExists(path)) ?? "", path);
}
