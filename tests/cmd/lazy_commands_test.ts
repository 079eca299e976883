import assert from "node:assert/strict";
import { importChain, reachedFrom, readModuleGraph } from "../../tools/module_graph.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/**
 * What `lnk <command>` loads before the command runs: main.ts and the command tree (cmd/mod.ts).
 * A command's own modules (agents, sandboxes, connections) load in its `run`, so a help, a "did
 * you mean" or a usage error waits on none of them, and each command on its own alone (before,
 * `lnk --help` loaded some 400 modules). Each entry says why it may load with the tree.
 */
const TREE_MAY_LOAD: [RegExp, string][] = [
  [/^main\.ts$/, "the entry"],
  [/^cmd\//, "the commands' help, flags and printing"],
  [/^core\/base\//, "errors and paths, which main.ts loads anyway"],
  [/^npm:(zod|smol-toml|@noble\/hashes)$/, "core/base's packages"],
  [/^node:util$/, "parseArgs, which every command's flags go through (cmd/flags.ts)"],
  [/^sandbox\/grant_flags\.ts$/, "the grant flags' names, in the help of allow, deny and sandbox run"],
];

Deno.test("the command tree loads cmd/ and core/base/ alone: each command's modules load when it runs", async () => {
  const graph = await readModuleGraph(MAIN);
  const reached = reachedFrom(graph, ["main.ts"], (from, i) => from === "main.ts" && i.to === "cmd/mod.ts");
  assert.ok(reached.has("cmd/agent/list.ts"), "the walk did not reach the command tree");
  const outside = [...reached.keys()].filter((name) => !TREE_MAY_LOAD.some(([rule]) => rule.test(name)));
  assert.deepEqual(outside.map((name) => importChain(reached, name)), []);
});

Deno.test("lnk agent list loads agents as data alone: no sandbox, proxy, connection, HTTP or harness module", async () => {
  const graph = await readModuleGraph(MAIN);
  // The tree, then what `list` loads when it runs (its dynamic imports), and nothing else's.
  const reached = reachedFrom(
    graph,
    ["main.ts"],
    (from, i) =>
      (from === "main.ts" && i.to === "cmd/mod.ts") || from === "cmd/agent/list.ts" ||
      from === "cmd/context.ts",
  );
  assert.ok(reached.has("core/agent/agent_status.ts"), "the walk did not reach what list runs");
  const heavy = /^(sandbox|proxy|connections|http1|link_bridge|core\/harness|core\/agent\/(launch|grants))\//;
  // The grant flags' names are the tree's (see above): a file of no imports.
  const loaded = [...reached.keys()].filter((name) => heavy.test(name) && name !== "sandbox/grant_flags.ts");
  assert.deepEqual(loaded.map((name) => importChain(reached, name)), []);
});
