/**
 * `deno task cycles`: fails on any import cycle among the files an entry loads (main.ts unless
 * named), as std's `lint:circular` does for its packages. Every import counts: one for types alone
 * bends the layers as much as one for values, and a dynamic import is still a dependency. Each
 * cycle is printed as one chain through it, with the files it joins.
 *
 * Run: `deno run --allow-read --allow-run tools/check_cycles.ts [entry.ts]`.
 * @module
 */
import { type ImportKind, type ModuleGraph, readModuleGraph } from "./module_graph.ts";

/** One set of files that import each other, round and round, and one way round it. */
export interface ImportCycle {
  /** Every file of the set, sorted. */
  readonly files: readonly string[];
  /** The shortest way round from the set's first file: `a.ts -> b.ts -> a.ts`, type and dynamic imports marked. */
  readonly chain: string;
  /** The imports inside the set from one top folder (or `core/<domain>`) to another, where a layer bends. */
  readonly crossings: readonly string[];
}

/** The import cycles among the graph's files (npm and Node modules left out), each set once. */
export function importCycles(graph: ModuleGraph): ImportCycle[] {
  const edges = new Map<string, Map<string, ImportKind>>();
  for (const [name, imports] of graph) {
    if (!isFile(name)) continue;
    const out = new Map<string, ImportKind>();
    for (const i of imports) if (isFile(i.to) && !out.has(i.to)) out.set(i.to, i.kind);
    edges.set(name, out);
  }
  return stronglyConnected(edges)
    .filter((set) => set.length > 1 || edges.get(set[0]!)?.has(set[0]!))
    .map((set) => set.sort())
    .map((set) => ({
      files: set,
      chain: shortestRound(edges, new Set(set), set[0]!),
      crossings: crossingsIn(edges, new Set(set)),
    }))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

function isFile(name: string): boolean {
  return !/^(npm|node|jsr|https?):/.test(name);
}

/** Tarjan's strongly connected sets, iteratively (a deep chain of imports is no stack overflow). */
function stronglyConnected(edges: Map<string, Map<string, ImportKind>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const sets: string[][] = [];
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { name: string; next: Iterator<string> }[] = [];
    const enter = (name: string) => {
      index.set(name, index.size);
      low.set(name, index.get(name)!);
      stack.push(name);
      onStack.add(name);
      work.push({ name, next: (edges.get(name) ?? new Map<string, ImportKind>()).keys() });
    };
    enter(start);
    while (work.length > 0) {
      const top = work.at(-1)!;
      const step = top.next.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(top.name, Math.min(low.get(top.name)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(top.name)!));
      if (low.get(top.name) !== index.get(top.name)) continue;
      const set: string[] = [];
      for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
        onStack.delete(name);
        set.push(name);
        if (name === top.name) break;
      }
      sets.push(set);
    }
  }
  return sets;
}

/** The shortest way from `start` back to itself inside `set`, as a chain. */
function shortestRound(edges: Map<string, Map<string, ImportKind>>, set: Set<string>, start: string): string {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const to of edges.get(name)?.keys() ?? []) {
      if (!set.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, name);
      if (to === start) return chainOf(edges, cameFrom, start);
      queue.push(to);
    }
  }
  return start;
}

function chainOf(
  edges: Map<string, Map<string, ImportKind>>,
  cameFrom: Map<string, string>,
  start: string,
): string {
  const steps: string[] = [];
  let at = start;
  do {
    const from = cameFrom.get(at)!;
    const kind = edges.get(from)!.get(at)!;
    steps.unshift(kind === "static" ? ` -> ${at}` : ` -(${kind})-> ${at}`);
    at = from;
  } while (at !== start);
  return start + steps.join("");
}

/** A file's place in the layers: its top folder, or `core/<domain>` (main.ts's is the top itself). */
function placeOf(name: string): string {
  const folders = name.split("/").slice(0, -1);
  return folders.slice(0, folders[0] === "core" ? 2 : 1).join("/");
}

function crossingsIn(edges: Map<string, Map<string, ImportKind>>, set: Set<string>): string[] {
  return [...set].flatMap((from) =>
    [...edges.get(from)!].filter(([to]) => set.has(to) && placeOf(to) !== placeOf(from))
      .map(([to, kind]) => `${from} ${kind === "static" ? "->" : `-(${kind})->`} ${to}`)
  );
}

/** The report of the cycles found: what a person reads when the check fails. */
export function cycleReport(cycles: readonly ImportCycle[], entry: string): string {
  return [
    `error: Cannot pass the import cycle check: ${cycles.length} cycle(s) among the files ${entry} loads`,
    ...cycles.flatMap((c) => [
      `  ${c.files.length} files import each other: ${c.files.join(", ")}`,
      `    one way round: ${c.chain}`,
      `    imports between folders in it: ${c.crossings.join(", ") || "none"}`,
    ]),
    "  hint: Move what both sides of each cycle need one layer down, so that imports only go down",
  ].join("\n");
}

if (import.meta.main) {
  const entry = Deno.args[0] ?? "main.ts";
  const cycles = importCycles(await readModuleGraph(entry));
  const encoder = new TextEncoder();
  if (cycles.length > 0) {
    Deno.stderr.writeSync(encoder.encode(`${cycleReport(cycles, entry)}\n`));
    Deno.exit(1);
  }
}
