/**
 * The module graph of an entry as `deno info --json` reads it, by names a person reads: a file of
 * the checkout by its path (`cmd/mod.ts`), a Node built-in as `node:util`, an npm package as
 * `npm:zod`. The cycle check and the tests of what a start loads read it.
 * @module
 */

/** How a module names another: loaded with it, loaded when the code asks (`import()`), or for types alone. */
export type ImportKind = "static" | "dynamic" | "type";

/** One import of a module. */
export interface ModuleImport {
  /** The imported module's name (see readModuleGraph). */
  readonly to: string;
  /** The specifier as the source spells it: `"./mod.ts"`, `"zod"`. */
  readonly written: string;
  readonly kind: ImportKind;
}

/** Every module of the graph with its imports, keyed by name; npm and Node modules import nothing here. */
export type ModuleGraph = ReadonlyMap<string, readonly ModuleImport[]>;

/**
 * The graph of `entry` (a path), read with `deno info --json` and the checkout's deno.json; files
 * are named relative to the entry's folder.
 */
export async function readModuleGraph(entry: string): Promise<ModuleGraph> {
  const config = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);
  const path = entry.startsWith("/") ? entry : `${Deno.cwd()}/${entry}`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", config, path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const root = path.slice(0, path.lastIndexOf("/") + 1);
  return moduleGraphOf(JSON.parse(new TextDecoder().decode(out.stdout)), root);
}

/** What `deno info --json` prints, as far as the graph needs it. */
interface DenoInfo {
  modules: {
    specifier: string;
    kind?: string;
    npmPackage?: string;
    dependencies?: {
      specifier: string;
      code?: { specifier: string };
      type?: { specifier: string };
      isDynamic?: boolean;
    }[];
  }[];
  redirects: Record<string, string>;
}

/** The graph of `deno info --json`'s output, names relative to `root` (a folder path). */
function moduleGraphOf(info: DenoInfo, root: string): ModuleGraph {
  const folder = new URL(root.endsWith("/") ? root : `${root}/`, "file:///").href;
  const npm = new Map(info.modules.flatMap((m) => m.npmPackage ? [[m.specifier, m.npmPackage]] : []));
  const nameOf = (specifier: string): string => {
    const resolved = info.redirects[specifier] ?? specifier;
    const pkg = npm.get(resolved);
    if (pkg) return `npm:${pkg.slice(0, pkg.lastIndexOf("@"))}`;
    return resolved.startsWith(folder) ? resolved.slice(folder.length) : resolved;
  };
  const graph = new Map<string, ModuleImport[]>();
  for (const module of info.modules) {
    const name = nameOf(module.specifier);
    const imports = graph.get(name) ?? [];
    graph.set(name, imports);
    for (const dep of module.dependencies ?? []) {
      const target = dep.code ?? dep.type;
      if (!target) continue;
      const kind: ImportKind = !dep.code ? "type" : dep.isDynamic ? "dynamic" : "static";
      imports.push({ to: nameOf(target.specifier), written: dep.specifier, kind });
    }
  }
  return graph;
}

/** Which imports a walk follows: every static one, and those `follow` names. */
export type FollowImport = (from: string, imported: ModuleImport) => boolean;

/**
 * Every module `entries` load, each with the module that first imported it (undefined for an
 * entry): static imports always, dynamic ones when `follow` says, type-only imports never.
 */
export function reachedFrom(
  graph: ModuleGraph,
  entries: readonly string[],
  follow: FollowImport = () => false,
): Map<string, string | undefined> {
  const reached = new Map<string, string | undefined>(entries.map((e) => [e, undefined]));
  const queue = [...entries];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const imported of graph.get(name) ?? []) {
      if (imported.kind === "type" || reached.has(imported.to)) continue;
      if (imported.kind === "dynamic" && !follow(name, imported)) continue;
      reached.set(imported.to, name);
      queue.push(imported.to);
    }
  }
  return reached;
}

/** How a walk reached `name`: `main.ts -> cmd/mod.ts -> ... -> name`. */
export function importChain(reached: ReadonlyMap<string, string | undefined>, name: string): string {
  const chain = [name];
  for (let at = reached.get(name); at !== undefined; at = reached.get(at)) chain.unshift(at);
  return chain.join(" -> ");
}
