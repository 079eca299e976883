import { join } from "node:path";
import type { SandboxSpec } from "./sandbox_spec.ts";
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
 * layout ([files] holds: Home per ".", named folders over it, instructions/ skills/ chats/ from
 * Agent/ beside Home's own folders, LAY-5, LAY-6), "home" for an outside harness (all of Home
 * writable, Agent/ out of reach, LAY-8).
 */
export type FoldersMode = "layout" | "home";

/** The collections the agent sees beside Home's own folders (LAY-5). */
export const VISIBLE_COLLECTIONS = ["instructions", "skills", "chats"] as const;
const UNSEEN_COLLECTIONS = ["memory", "schedule"];

/** Adds the mounts showing an agent's folders; returns the mount points to make in Home first. */
export function addFilesMounts(
  list: MountList,
  spec: SandboxSpec,
  agent: SandboxAgent,
  options: { mode: FoldersMode; harnessWritesChats: boolean; source?: SpecSource; notices: string[] },
): string[] {
  if (options.mode === "home") {
    list.add(LAYER.agent, { kind: "rw", src: agent.home, dest: agent.home });
    const custom = Object.entries(spec.files).some(([k, v]) => !(k === "." && v === "write"));
    if (custom) options.notices.push("[files] holds only for Link's tools: this harness gets all of Home");
    return [];
  }
  const files = spec.files;
  const homeAccess = files["."] ?? "none";
  const ensure: string[] = [];
  mountAccess(list, agent.home, agent.home, homeAccess);
  for (const [name, access] of Object.entries(files)) {
    if (name === ".") continue;
    if (UNSEEN_COLLECTIONS.includes(name)) {
      throw specRefusal(
        options.source,
        ["files", name],
        `"${name}" is not a folder the agent's tools see: it reaches its ${name} through Link`,
      );
    }
    const dest = join(agent.home, name);
    if ((VISIBLE_COLLECTIONS as readonly string[]).includes(name)) {
      if (name === "chats" && access === "write") {
        throw specRefusal(options.source, ["files", "chats"], "chats/ is never writable to a tool (LAY-7)");
      }
      const level = name === "chats" && options.harnessWritesChats ? "write" : access;
      if (level === "none") continue;
      mountAccess(list, join(agent.agentDir, name), dest, level);
      ensure.push(dest);
      continue;
    }
    if (access === homeAccess) continue;
    mountAccess(list, dest, dest, access);
    ensure.push(dest);
  }
  if (options.harnessWritesChats && !("chats" in files)) {
    mountAccess(list, join(agent.agentDir, "chats"), join(agent.home, "chats"), "write");
    ensure.push(join(agent.home, "chats"));
  }
  return ensure;
}

function mountAccess(list: MountList, src: string, dest: string, access: "none" | "read" | "write"): void {
  if (access === "none") list.add(LAYER.agent, { kind: "hide", dest, folder: true });
  else list.add(LAYER.agent, { kind: access === "write" ? "rw" : "ro", src, dest });
}
