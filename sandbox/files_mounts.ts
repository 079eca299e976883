import { join } from "node:path";
import type { SandboxSpec } from "../core/spec/mod.ts";
import { LAYER, type MountList } from "./mount_list.ts";
import { specRefusal, type SpecSource } from "./spec_refusal.ts";

/** The agent whose folders a sandbox shows. */
export interface SandboxAgent {
  readonly id: string;
  readonly name: string;
  /** Its Home: `~/Link/Agents/<name>/Home`, or the folder picked with --files. */
  readonly home: string;
  /** Its brain: `~/Link/Agents/<name>/Agent`, holding instructions/ skills/ chats/ ... */
  readonly agentDir: string;
}

/**
 * How the agent's folders are shown: "layout" for Link's tools and a harness that keeps to the
 * layout ([files] holds: Home at its own path per ".", the folders [files] names in it over it, and
 * each collection of Agent/ the grants show at its own path, LAY-3, LAY-6), "home" for an outside
 * harness (all of Home writable, Agent/ out of reach, LAY-8). The combined view the agent is told
 * of (instructions/, skills/ and chats/ beside Home's own folders, LAY-5) is its tools' to make.
 */
export type FoldersMode = "layout" | "home";

/** The collections the agent sees beside Home's own folders (LAY-5). */
export const VISIBLE_COLLECTIONS = ["instructions", "skills", "chats"] as const;
const UNSEEN_COLLECTIONS = ["memory", "schedule"];

/** How addFilesMounts shows the agent's folders. */
export interface FilesMountOptions {
  readonly mode: FoldersMode;
  /** The harness itself writes Agent/chats (Link Harness); its tools never do (LAY-7). */
  readonly harnessWritesChats: boolean;
  /** The harness keeps the agent's notes in Agent/memory (Link Harness's notes tools). */
  readonly harnessWritesNotes: boolean;
  readonly source?: SpecSource;
  readonly notices: string[];
}

/**
 * Adds the mounts showing an agent's folders; returns the folders to make first. Nothing is made
 * in Home for Agent/: each collection is bound at its own path in Agent/, so a Home the person
 * picked (--files, a repository) gets no instructions/, skills/ or chats/ (LAY-2, LAY-3). The only
 * folders made in Home are those the person's own [files] names in it, which must exist to be granted.
 */
export function addFilesMounts(
  list: MountList,
  spec: SandboxSpec,
  agent: SandboxAgent,
  options: FilesMountOptions,
): string[] {
  if (options.mode === "home") {
    list.add(LAYER.agent, { kind: "rw", src: agent.home, dest: agent.home, check: "exact", guarded: true });
    const custom = Object.entries(spec.files).some(([k, v]) => !(k === "." && v === "write"));
    if (custom) options.notices.push("[files] holds only for Link's tools: this harness gets all of Home");
    return [];
  }
  const files = spec.files;
  const homeAccess = files["."] ?? "none";
  const ensure: string[] = [];
  mountAccess(list, agent.home, homeAccess);
  for (const [name, access] of Object.entries(files)) {
    if (name === ".") continue;
    if (UNSEEN_COLLECTIONS.includes(name)) {
      throw specRefusal(
        options.source,
        ["files", name],
        `"${name}" is not a folder the agent's tools see: it reaches its ${name} through Link`,
      );
    }
    if (name === "chats" && access === "write") {
      throw specRefusal(options.source, ["files", "chats"], "chats/ is never writable to a tool (LAY-7)");
    }
    if ((VISIBLE_COLLECTIONS as readonly string[]).includes(name) || access === homeAccess) continue;
    const dest = join(agent.home, name);
    mountAccess(list, dest, access);
    ensure.push(dest);
  }
  return [...ensure, ...addCollectionMounts(list, files, agent.agentDir, options)];
}

/**
 * Binds each collection the grants show at its own path in Agent/: instructions/ and skills/ as
 * [files] says, chats/ writable when the harness writes it (else as [files] says, never writable),
 * memory/ writable when the harness keeps its notes there. A collection shown "none" is not bound:
 * Agent/ itself stays out of reach (under ~/Link/Agents, hidden), and so do schedule/ and Config/.
 * Returns the folders the harness writes, to make first; a missing read-only one is left out.
 */
function addCollectionMounts(
  list: MountList,
  files: SandboxSpec["files"],
  agentDir: string,
  options: FilesMountOptions,
): string[] {
  const ensure: string[] = [];
  const shown: [string, "none" | "read" | "write"][] = VISIBLE_COLLECTIONS.map((name) => [
    name,
    name === "chats" && options.harnessWritesChats ? "write" : files[name] ?? "none",
  ]);
  if (options.harnessWritesNotes) shown.push(["memory", "write"]);
  for (const [name, access] of shown) {
    if (access === "none") continue;
    const path = join(agentDir, name);
    if (access === "write") ensure.push(path);
    list.add(LAYER.agent, {
      kind: access === "write" ? "rw" : "ro",
      src: path,
      dest: path,
      optional: true,
      check: "exact",
    });
  }
  return ensure;
}

function mountAccess(list: MountList, path: string, access: "none" | "read" | "write"): void {
  if (access === "none") list.add(LAYER.agent, { kind: "hide", dest: path, folder: true });
  else {
    const write = access === "write";
    list.add(LAYER.agent, {
      kind: write ? "rw" : "ro",
      src: path,
      dest: path,
      check: "exact",
      guarded: write,
    });
  }
}
