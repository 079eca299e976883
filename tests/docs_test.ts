/**
 * docs/requirements.md stays whole: every requirement id the source and the tests cite has its line,
 * and each line names files that are there and cite it. Reads the checkout's own files; no network.
 */
import assert from "node:assert/strict";
import { fileUrlPath, joinPath } from "../core/base/mod.ts";

const ROOT = fileUrlPath(new URL("../", import.meta.url));

/** The requirements' prefixes: `UTF-8`, `SHA-256` or `SSH-2` in the code cite nothing. */
const PREFIXES = [
  "PRN",
  "CLI",
  "IDN",
  "PRT",
  "LAY",
  "BAK",
  "SKL",
  "MDL",
  "ADP",
  "PRC",
  "TRN",
  "SCH",
  "TEAM",
  "CON",
  "ACS",
  "LOC",
  "WHK",
  "SBX",
  "GRT",
  "BRG",
  "MEM",
  "MOV",
  "BOX",
  "U",
]; // deno-fmt-ignore

/** An id, or a range of them such as `<prefix>-1..8`, which cites each id in it. */
const CITATION = new RegExp(`\\b(${PREFIXES.join("|")})-(\\d+)(?:\\.\\.(\\d+))?\\b`, "g");

/** Folders whose files are not Link's source or tests. */
const SKIPPED = new Set([".git", "node_modules", "dist", "docs"]);

/** The ids a text cites, ranges spelled out. */
function citedIn(text: string): Set<string> {
  const ids = new Set<string>();
  for (const [, prefix, from, to] of text.matchAll(CITATION)) {
    for (let n = Number(from); n <= Number(to ?? from); n++) ids.add(`${prefix}-${n}`);
  }
  return ids;
}

/** Every `.ts` file of the checkout, as a path from its root, with the ids it cites. */
async function citations(): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(joinPath(ROOT, dir))) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory && !SKIPPED.has(entry.name)) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".ts")) {
        found.set(path, citedIn(await Deno.readTextFile(joinPath(ROOT, path))));
      }
    }
  };
  await walk("");
  return found;
}

/** One id's line of docs/requirements.md: its text, wrapped lines joined, and the files it names. */
interface RequirementLine {
  readonly id: string;
  readonly text: string;
  readonly files: readonly string[];
}

/** The id lines of docs/requirements.md (`- **<id>**: ...`, continued by indented lines). */
async function requirementLines(): Promise<RequirementLine[]> {
  const text = await Deno.readTextFile(joinPath(ROOT, "docs", "requirements.md"));
  const items: { id: string; text: string }[] = [];
  let current: { id: string; text: string } | undefined;
  for (const line of text.split("\n")) {
    const start = /^- \*\*([A-Z]+-\d+)\*\*: (.*)$/.exec(line);
    if (start) items.push(current = { id: start[1]!, text: start[2]! });
    else if (current && line.startsWith("  ")) current.text += ` ${line.trim()}`;
    else current = undefined;
  }
  return items.map((item) => ({
    ...item,
    files: [...item.text.matchAll(/`([a-z0-9_]+(?:\/[a-z0-9_.]+)+\.ts)`/g)].map((m) => m[1]!),
  }));
}

Deno.test("docs/requirements.md has a line for every requirement id the source and tests cite", async () => {
  const lines = new Set((await requirementLines()).map((l) => l.id));
  const missing: Record<string, string> = {};
  for (const [path, ids] of await citations()) {
    for (const id of ids) if (!lines.has(id)) missing[id] ??= path;
  }
  // Each id missing, with one file citing it: its line goes in docs/requirements.md.
  assert.deepEqual(missing, {});
});

Deno.test("docs/requirements.md gives each id one line, naming the files that cite it", async () => {
  const lines = await requirementLines();
  const ids = lines.map((l) => l.id);
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], "ids with two lines");
  assert.deepEqual(lines.filter((l) => l.files.length === 0).map((l) => l.id), [], "ids naming no file");
});

Deno.test("docs/requirements.md names files that are there and cite the id", async () => {
  const cited = await citations();
  const wrong: string[] = [];
  for (const line of await requirementLines()) {
    for (const file of line.files) {
      const ids = cited.get(file);
      if (!ids) wrong.push(`${line.id}: ${file} is not there`);
      else if (!ids.has(line.id)) wrong.push(`${line.id}: ${file} does not cite it`);
    }
  }
  // A file moved or renamed, or its citation gone: its line in docs/requirements.md names it anew.
  assert.deepEqual(wrong, []);
});
