import assert from "node:assert/strict";
import { join, relative } from "node:path";

const ROOT = new URL("../../../", import.meta.url).pathname;
/** The source, as lnk is built from it: tests, bench and docs may name any harness. */
const SOURCE = ["main.ts", "cmd", "core", "connections", "sandbox", "proxy", "link_bridge", "http1", "tools"];
/**
 * Where an outside harness may be named (PRN-5): KNOWN, the list of Link's adapters, each adapter's
 * own folder, and the list of harnesses whose model key is wired by default (SBX-17).
 */
const ALLOWED = [
  /^core\/adapters\/known\.ts$/,
  /^core\/adapters\/built_ins\.ts$/,
  /^core\/adapters\/(openclaw|hermes|deepseek)\//,
  /^core\/agent\/grants\/model_keys\.ts$/,
];
/** An outside harness's name. DeepSeek alone is also a model provider, so its harness is "DeepSeek Harness" or `dsh`. */
const NAMES = /openclaw|hermes|deepseek harness|\bdsh\b/i;

async function* sourceFiles(path: string): AsyncGenerator<string> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (!info) return;
  if (info.isFile) {
    if (path.endsWith(".ts")) yield path;
    return;
  }
  for await (const entry of Deno.readDir(path)) yield* sourceFiles(join(path, entry.name));
}

Deno.test("an outside harness is named only in KNOWN, the list of Link's adapters, its adapter's folder and the list of wired keys (PRN-5)", async () => {
  const hits: string[] = [];
  let read = 0;
  for (const top of SOURCE) {
    for await (const file of sourceFiles(join(ROOT, top))) {
      read++;
      const path = relative(ROOT, file);
      if (ALLOWED.some((allowed) => allowed.test(path))) continue;
      (await Deno.readTextFile(file)).split("\n").forEach((line, i) => {
        if (NAMES.test(line)) hits.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.ok(read > 100, `read only ${read} files: is the source where this test looks?`);
  assert.deepEqual(hits, []);
});
