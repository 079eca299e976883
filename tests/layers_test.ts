import assert from "node:assert/strict";
import { importCycles } from "../tools/check_cycles.ts";
import { readModuleGraph } from "../tools/module_graph.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The layers of docs/architecture.md section 9, lowest first: a file imports its own or a lower one. */
const LAYERS: [number, RegExp][] = [
  [1, /^core\/base\//],
  [2, /^core\/spec\//],
  [3, /^(http1|sandbox|proxy|link_bridge|connections)\//],
  [5, /^core\/(agent_bridge|agent_run|shared_bridge|shared_harness|memory_service|harness_hub)\//],
  [4, /^core\/[a-z_]+\//],
  [6, /^cmd\//],
  [7, /^main\.ts$/],
];

function layerOf(name: string): number | undefined {
  return LAYERS.find(([, rule]) => rule.test(name))?.[0];
}

/** The folder a file is in, for the mod.ts rule: its top folder, or core/<domain>. */
function folderOf(name: string): string {
  const parts = name.split("/");
  return parts[0] === "core" ? parts.slice(0, 2).join("/") : parts[0]!;
}

/**
 * Imports across folders that name a file other than the folder's mod.ts, each on purpose, so a
 * start waits on no more than it needs (tests/wake_modules_test.ts holds the wake's).
 */
const NOT_MOD_ON_PURPOSE = new Map([
  ["main.ts -> sandbox/run_relay_role.ts", "the relay role alone, in every sandbox"],
  ["main.ts -> core/harness/serve/run_harness_warm_role.ts", "what a wake loads, and those alone"],
  ["core/harness/serve/run_harness_warm_role.ts -> sandbox/run_relay_role.ts", "the same, warmed"],
  ["core/harness/serve/run_harness_host_role.ts -> sandbox/relay.ts", "the host's relays, in its sandbox"],
  [
    "cmd/agent/allow.ts -> sandbox/grant_flags.ts",
    "the grant flags' names, a file of no imports, in the help",
  ],
  ["cmd/agent/harness/allow.ts -> sandbox/grant_flags.ts", "the same, for the harness's layer"],
  ["cmd/sandbox/run.ts -> sandbox/grant_flags.ts", "the same"],
  [
    "core/adapters/contract.ts -> sandbox/grant_flags.ts",
    "the same: agents' settings read the contract's schemas, and load no sandbox",
  ],
  // The protocol between the shared harness and its host: core/harness/serve/mod.ts is all of Link Harness.
  [
    "core/shared_harness/run_shared_harness_role.ts -> core/harness/serve/host_protocol.ts",
    "the host protocol",
  ],
  ["core/shared_harness/shared_harness.ts -> core/harness/serve/host_protocol.ts", "the host protocol"],
  ["core/shared_harness/shared_sandbox.ts -> core/harness/serve/host_protocol.ts", "the host protocol"],
  // The memory service starts at a wake (PRC-14): it loads the few files of agents and the store it reads by.
  ["core/memory_service/memory_service.ts -> core/agent/settings.ts", "an agent's settings, for its owner"],
  ["core/memory_service/memory_service.ts -> core/agent/agent_config.ts", "an agent's spec, for [memory] on"],
  [
    "core/memory/memory_chunks.ts -> core/harness/store/conversation_folder.ts",
    "a conversation's folder name",
  ],
  [
    "core/memory/store_events.ts -> core/harness/store/conversation_folder.ts",
    "a conversation's folder name, for the SQLite store's events",
  ],
]);

Deno.test("Link's source has no import cycle, and each import goes to its own layer or a lower one", async () => {
  const graph = await readModuleGraph(MAIN);
  assert.deepEqual(importCycles(graph).map((c) => c.chain), []);
  const upward: string[] = [];
  for (const [from, imports] of graph) {
    const own = layerOf(from);
    if (own === undefined) continue;
    for (const { to } of imports) {
      const theirs = layerOf(to);
      if (theirs !== undefined && theirs > own) {
        upward.push(`${from} (layer ${own}) -> ${to} (layer ${theirs})`);
      }
    }
  }
  assert.deepEqual(upward, []);
  // core/agent/ is agents as data and their lifecycle: it imports no role folder.
  const roles = [...graph].flatMap(([from, imports]) =>
    from.startsWith("core/agent/")
      ? imports.filter((i) => layerOf(i.to) === 5).map((i) => `${from} -> ${i.to}`)
      : []
  );
  assert.deepEqual(roles, []);
});

Deno.test("across folders a file imports the other folder's mod.ts only", async () => {
  const graph = await readModuleGraph(MAIN);
  const direct: string[] = [];
  for (const [from, imports] of graph) {
    if (layerOf(from) === undefined) continue;
    for (const { to } of imports) {
      if (layerOf(to) === undefined || folderOf(to) === folderOf(from) || to.endsWith("/mod.ts")) continue;
      if (!NOT_MOD_ON_PURPOSE.has(`${from} -> ${to}`)) direct.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(direct, []);
});
