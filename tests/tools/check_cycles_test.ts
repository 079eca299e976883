import assert from "node:assert/strict";
import { importCycles } from "../../tools/check_cycles.ts";
import type { ModuleGraph, ModuleImport } from "../../tools/module_graph.ts";

const FIXTURES = new URL("../fixtures/tools/", import.meta.url).pathname;
const SCRIPT = new URL("../../tools/check_cycles.ts", import.meta.url).pathname;

/** A graph from `name: [imports]`, each import `to`, `to:type` or `to:dynamic`. */
function graphOf(edges: Record<string, string[]>): ModuleGraph {
  return new Map(
    Object.entries(edges).map(([name, imports]) => [
      name,
      imports.map((i): ModuleImport => {
        const [, to, kind] = /^(.*?)(?::(type|dynamic))?$/.exec(i)!;
        return { to: to!, written: `./${to}`, kind: (kind ?? "static") as ModuleImport["kind"] };
      }),
    ]),
  );
}

async function runCheck(entry: string): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-run", "--cached-only", SCRIPT, entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout), "");
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("importCycles() finds each set of files that import each other once, by every kind of import", () => {
  const graph = graphOf({
    "main.ts": ["core/x/a.ts", "core/y/d.ts", "npm:zod", "node:util"],
    "core/x/a.ts": ["core/x/b.ts", "npm:zod"],
    "core/x/b.ts": ["core/y/c.ts"],
    "core/y/c.ts": ["core/x/a.ts:type"],
    "core/y/d.ts": ["core/y/e.ts:dynamic"],
    "core/y/e.ts": ["core/y/d.ts", "core/y/e.ts"],
    "npm:zod": [],
    "node:util": [],
  });
  assert.deepEqual(importCycles(graph), [
    {
      files: ["core/x/a.ts", "core/x/b.ts", "core/y/c.ts"],
      chain: "core/x/a.ts -> core/x/b.ts -> core/y/c.ts -(type)-> core/x/a.ts",
      crossings: ["core/x/b.ts -> core/y/c.ts", "core/y/c.ts -(type)-> core/x/a.ts"],
    },
    {
      files: ["core/y/d.ts", "core/y/e.ts"],
      chain: "core/y/d.ts -(dynamic)-> core/y/e.ts -> core/y/d.ts",
      crossings: [],
    },
  ]);
});

Deno.test("importCycles() finds a file that imports itself, and nothing in a graph without cycles", () => {
  assert.deepEqual(importCycles(graphOf({ "a.ts": ["a.ts"] })), [
    { files: ["a.ts"], chain: "a.ts -> a.ts", crossings: [] },
  ]);
  assert.deepEqual(importCycles(graphOf({ "a.ts": ["b.ts", "c.ts"], "b.ts": ["c.ts"], "c.ts": [] })), []);
});

Deno.test("tools/check_cycles.ts fails on a graph with cycles, naming each, and passes one without", async () => {
  const cycle = await runCheck(`${FIXTURES}cycle/main.ts`);
  assert.deepEqual(cycle, {
    code: 1,
    stderr: [
      `error: Cannot pass the import cycle check: 2 cycle(s) among the files ${FIXTURES}cycle/main.ts loads`,
      "  3 files import each other: a.ts, b.ts, c.ts",
      "    one way round: a.ts -> b.ts -> c.ts -> a.ts",
      "    imports between folders in it: none",
      "  2 files import each other: d.ts, e/e.ts",
      "    one way round: d.ts -> e/e.ts -(type)-> d.ts",
      "    imports between folders in it: d.ts -> e/e.ts, e/e.ts -(type)-> d.ts",
      "  hint: Move what both sides of each cycle need one layer down, so that imports only go down",
      "",
    ].join("\n"),
  });
  assert.deepEqual(await runCheck(`${FIXTURES}no_cycle/main.ts`), { code: 0, stderr: "" });
});
