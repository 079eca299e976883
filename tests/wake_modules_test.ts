/**
 * What a wake loads (PRC-13): the sandbox's first process is `lnk sandbox relay`, which runs the
 * harness's role (`lnk harness serve`, or `lnk harness host` for an owner's shared harness) in the
 * same process, so a woken agent waits on every module of main.ts, the relay role and the harness
 * role until it answers. The code keeps that small by hand (core/base/file_path.ts instead of
 * node:path, core/base/lazy_schema.ts, direct file imports instead of a folder's mod.ts); these
 * tests read the graph with `deno info` and fail, naming the import chain, when a change undoes it.
 * @module
 */
import assert from "node:assert/strict";
import { ROLES } from "../main.ts";
import {
  type FollowImport,
  importChain,
  type ModuleGraph,
  reachedFrom,
  readModuleGraph,
} from "../tools/module_graph.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** What must not load before a woken harness answers, and what each rule protects. */
const KEPT_OUT: [RegExp, string][] = [
  [
    /^node:/,
    "a node: module: the first one costs a process Node's compatibility layer, some 15 ms " +
    "(core/base/file_path.ts, and run_harness_serve_role.ts reading --socket by hand)",
  ],
  [/^cmd\//, "the command line: only main.ts's commands load it"],
  [
    /^proxy\//,
    "the proxy: it runs outside the sandbox (main.ts loads sandbox/relay_role.ts, not sandbox/mod.ts, for this)",
  ],
  [
    /^sandbox\/mod\.ts$/,
    "sandbox/'s whole API, every grant schema and the proxy with it: the relay role and the harness's " +
    "input import the files they need (main.ts, core/harness/serve/harness_input.ts)",
  ],
  [
    /^core\/agent\/(?!spec\.ts$)|^core\/(agent_bridge|agent_run|shared_bridge|shared_harness)\//,
    "agents' lifecycle and the roles outside the sandbox: the harness is handed its agent and takes " +
    "only the spec's schema (core/harness/serve/harness_input.ts)",
  ],
  [
    /^core\/harness\/tools\/mod\.ts$|^core\/harness\/serve\/harness_tools\.ts$/,
    "the harness's tools: they load at the model's first call of one (core/harness/serve/lazy_tools.ts)",
  ],
  [
    /^core\/harness\/store\/(mod|sqlite_store|bridge_store|program_store)\.ts$/,
    "a store driver but the default files one: the others load only when used (load_served_agent.ts)",
  ],
  [
    /^npm:(?!(zod|smol-toml|@noble\/hashes)$)/,
    "a package of another part (grammy, @slack/*, @discordjs/* load only in their platform's role); " +
    "zod, smol-toml and @noble/hashes come with core/base",
  ],
];

/** A dynamic import a wake does not take, and when it is taken instead. */
interface Deferred {
  readonly from: string;
  readonly written: string;
  readonly why: string;
}

/** The harness's dynamic imports that load after it answers, or never at a wake; any other is followed. */
const DEFERRED: Deferred[] = [
  {
    from: "core/harness/serve/load_served_agent.ts",
    written: "../../agent/mod.ts",
    why: "only for an agent whose files were not handed over: a harness started by hand",
  },
  {
    from: "core/harness/serve/load_served_agent.ts",
    written: "../store/mod.ts",
    why: "the SQLite and store-bridge drivers, when the spec or the agent role name one",
  },
  {
    from: "core/harness/serve/load_served_agent.ts",
    written: "../tools/mod.ts",
    why: "the tools, at the model's first call of one",
  },
  {
    from: "core/harness/serve/load_served_agent.ts",
    written: "./harness_tools.ts",
    why: "the tools, at the model's first call of one",
  },
  {
    from: "core/harness/serve/load_served_agent.ts",
    written: "../tools/proxied_tools.ts",
    why: "Link's tools listed by the harness itself through the MCP SDK, only when the bridge did not " +
      "hand them over listed (a harness started by hand); awaited by the first turn only",
  },
  {
    from: "core/harness/tools/lazy_proxied_tools.ts",
    written: "./proxied_tools.ts",
    why: "the MCP SDK's client, at the first call of one of Link's tools the bridge listed",
  },
];

/** The two harness roles a sandbox's relay runs, and the other's entry in the module they share. */
const WAKES = [
  { role: "harness serve", sandbox: "an agent's own sandbox", other: "./run_harness_host_role.ts" },
  { role: "harness host", sandbox: "an owner's shared harness", other: "./run_harness_serve_role.ts" },
];

/** The module a role's entry in main.ts's ROLES imports (the table's own words, read from it). */
function roleModule(words: string): string {
  const load = ROLES[words];
  assert.ok(load, `main.ts's ROLES has no "${words}"`);
  const imported = [...String(load).matchAll(/import\(\s*["']\.\/([^"']+)["']\s*\)/g)].map((m) => m[1]!);
  assert.equal(imported.length, 1, `main.ts's "${words}" imports ${imported.length} modules, not one`);
  return imported[0]!;
}

/** Everything a sandbox's first process loads when its relay runs `harness` in-process. */
function wakeOf(graph: ModuleGraph, harness: string, other: string): Map<string, string | undefined> {
  const relay = roleModule("sandbox relay");
  const role = roleModule(harness);
  const follow: FollowImport = (from, i) => {
    if (from === "main.ts") return i.to === relay || i.to === role;
    if (from === role && i.written === other) return false;
    return !DEFERRED.some((d) => d.from === from && d.written === i.written);
  };
  return reachedFrom(graph, ["main.ts"], follow);
}

for (const wake of WAKES) {
  Deno.test(`a wake of ${wake.sandbox} (lnk sandbox relay, then lnk ${wake.role}) loads nothing it does not need`, async () => {
    const graph = await readModuleGraph(MAIN);
    const reached = wakeOf(graph, wake.role, wake.other);
    assert.ok(reached.has(roleModule("sandbox relay")) && reached.has(roleModule(wake.role)));
    assert.ok(
      reached.has("core/harness/serve/load_served_agent.ts"),
      "the walk did not reach the agent's load",
    );
    const found = [...reached.keys()].flatMap((name) =>
      KEPT_OUT.filter(([rule]) => rule.test(name)).map(([, why]) =>
        `${why}:\n  ${importChain(reached, name)}`
      )
    );
    assert.deepEqual(found, []);
  });
}

Deno.test("every import the wake test leaves out is still a dynamic import of the code", async () => {
  const graph = await readModuleGraph(MAIN);
  const dynamic = (from: string, written: string) =>
    (graph.get(from) ?? []).some((i) => i.kind === "dynamic" && i.written === written);
  const stale = [
    ...DEFERRED.filter((d) => !dynamic(d.from, d.written)),
    ...WAKES.filter((w) => !dynamic(roleModule(w.role), w.other)).map((w) => ({
      from: w.role,
      written: w.other,
    })),
  ].map((d) => `${d.from}: import("${d.written}")`);
  assert.deepEqual(stale, []);
});

/** Platforms' packages, each loaded only by the role that carries one connection (`lnk connection bridge`). */
const PLATFORM_PACKAGES = /^npm:(grammy|@slack\/.*|@discordjs\/.*|discord\.js)$/;
const CONNECTION_ROLE = "connection bridge";

Deno.test("no role of main.ts loads the command line, nor one but the connection's bridge a platform's package, whatever it imports later", async () => {
  const graph = await readModuleGraph(MAIN);
  const found = Object.keys(ROLES).flatMap((words) => {
    const entry = roleModule(words);
    // Every dynamic import but main.ts's own (the other roles, and the CLI).
    const reached = reachedFrom(graph, [entry], (from) => from !== "main.ts");
    return [...reached.keys()]
      .filter((name) =>
        name.startsWith("cmd/") || (words !== CONNECTION_ROLE && PLATFORM_PACKAGES.test(name))
      )
      .map((name) => `lnk ${words}: ${importChain(reached, name)}`);
  });
  assert.deepEqual(found, []);
});
