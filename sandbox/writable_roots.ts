import { join } from "node:path";
import { type LinkPaths, parseToml } from "../core/base/mod.ts";
import { expandHome } from "./hidden_paths.ts";
import type { SandboxSpec } from "../core/spec/mod.ts";

/** What a sandbox knows of the places it and its kind write (a part of planSandbox's input). */
export interface WritableInput {
  readonly paths: LinkPaths;
  readonly spec: SandboxSpec;
  readonly agent?: { readonly home: string };
  readonly also?: readonly { readonly spec: SandboxSpec; readonly agent: { readonly home: string } }[];
  readonly teams?: Readonly<Record<string, string>>;
  readonly hide?: readonly string[];
  readonly realPaths?: Readonly<Record<string, string>>;
  /** Other agents' write grants, found by writeGrantsOfAgents. */
  readonly writable?: readonly string[];
}

/**
 * Every place some sandbox of this machine's agents can write, where a link may have been made by
 * an agent and so is never followed: the agents' folders (~/Link/Agents, each Home kept elsewhere),
 * the team folders, this sandbox's write grants and every other agent's; each as given and as its
 * real path.
 */
export function writableRoots(input: WritableInput): string[] {
  const home = input.paths.home;
  const specs = [input.spec, ...(input.also ?? []).map((a) => a.spec)];
  const given = [
    input.paths.agentFolders,
    input.paths.teamFolders,
    ...(input.hide ?? []),
    ...(input.agent ? [input.agent.home] : []),
    ...(input.also ?? []).map((a) => a.agent.home),
    ...Object.values(input.teams ?? {}),
    ...specs.flatMap((s) => s.paths.write.map((p) => expandHome(p, home))),
    ...(input.writable ?? []),
  ];
  return [...new Set([...given, ...given.map((p) => input.realPaths?.[p] ?? p)])];
}

/**
 * The write grants of every agent's sandbox file (~/Link/Agents/<name>/Config/sandbox.toml) and of
 * every harness's layer (~/.lnk/harnesses/<harness>.toml), as paths. A file that cannot be read
 * adds nothing: its agent cannot start until it is fixed.
 */
export async function writeGrantsOfAgents(paths: LinkPaths): Promise<string[]> {
  const files: string[] = [];
  for (const name of await folderNames(paths.agentFolders)) {
    files.push(join(paths.agentFolders, name, "Config", "sandbox.toml"));
  }
  for (const name of await folderNames(paths.harnesses)) {
    if (name.endsWith(".toml")) files.push(join(paths.harnesses, name));
  }
  const found: string[] = [];
  for (const file of files) {
    try {
      const raw = parseToml(await Deno.readTextFile(file), file) as { paths?: { write?: unknown } };
      const write = raw.paths?.write;
      if (Array.isArray(write)) {
        found.push(
          ...write.filter((p): p is string => typeof p === "string").map((p) => expandHome(p, paths.home)),
        );
      }
    } catch {
      // Missing or broken: nothing to add.
    }
  }
  return found;
}

async function folderNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch {
    // None yet.
  }
  return names;
}
