/**
 * tests/ keeps its one naming rule (tests/README.md): a folder's own helpers are `_support.ts` or
 * `_<what>_support.ts`, a program a test runs is `_<what>_child.<ext>`, and what tests of more than
 * one folder share lives in tests/support/ under a plain name. Reads the checkout's own files.
 */
import assert from "node:assert/strict";
import { fileUrlPath, joinPath } from "../core/base/mod.ts";

const ROOT = fileUrlPath(new URL("../", import.meta.url));

/** Folders of tests/ that hold no helpers of this rule: the fakes, and files other tests read as data. */
const OWN_RULES = new Set(["tests/fakes", "tests/fixtures"]);

/** Every file under `dir` (a path from the checkout's root), outside OWN_RULES. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(joinPath(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !OWN_RULES.has(path)) found.push(...await filesUnder(path));
    else if (entry.isFile) found.push(path);
  }
  return found.sort();
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Why `path` breaks the rule, or undefined when it keeps it. */
function misnamed(path: string): string | undefined {
  const name = nameOf(path);
  if (/^_[a-z0-9_]+_child\.[a-z]+$/.test(name) || name.endsWith("_test.ts")) return undefined;
  if (folderOf(path) === "tests/support") {
    return /^[a-z][a-z0-9_]*\.ts$/.test(name) ? undefined : "a shared helper has a plain name";
  }
  if (folderOf(path) === "tests") return "tests/ itself holds tests only";
  if (/^_([a-z0-9_]+_)?support\.ts$/.test(name)) return undefined;
  return "a folder's helper is _support.ts, _<what>_support.ts or _<what>_child.<ext>";
}

/** The checkout's files each relative path string in `path` names (imports, `new URL(...)`). */
async function named(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(joinPath(ROOT, path));
  return [...text.matchAll(/["'](\.\.?\/[^"'\s`$]+)["']/g)].map((m) =>
    new URL(m[1]!, `file:///${path}`).pathname.slice(1)
  );
}

Deno.test("every helper under tests/ is named by the one rule", async () => {
  const wrong = (await filesUnder("tests")).filter((path) => !path.endsWith(".md")).flatMap((path) => {
    const why = misnamed(path);
    return why ? [`${path}: ${why}`] : [];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("a file named _x is named only by files of its own folder; shared ones go to tests/support/", async () => {
  const wrong: string[] = [];
  const sources = [...await filesUnder("tests"), ...await filesUnder("bench"), ...await filesUnder("tools")];
  for (const from of sources.filter((path) => path.endsWith(".ts"))) {
    for (const target of await named(from)) {
      if (
        nameOf(target).startsWith("_") && target.startsWith("tests/") && folderOf(target) !== folderOf(from)
      ) {
        wrong.push(`${from} names ${target}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});
