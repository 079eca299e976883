import { basename, join } from "node:path";
import { type Clock, SYSTEM_CLOCK } from "../core/base/mod.ts";
import { parseCgroupMounts, parseOwnCgroups } from "./cgroups.ts";

/** What the kernel holds a running sandbox to by cgroups: the bounds of the cgroups bubblewrap is in. */
export interface ObservedLimits {
  /** pids.max, when a cgroup bounds it. */
  readonly processes?: number;
  /** memory.max (v2) or memory.limit_in_bytes (v1), when a cgroup bounds it. */
  readonly memory?: number;
}

/** How long a sandbox's launcher may take to become bubblewrap (it joins its cgroups first). */
const START_MS = 2000;

/**
 * Reads the cgroup bounds of a running sandbox from the kernel, whoever put them there (Link's own
 * cgroup, a systemd scope): once its launcher has become bubblewrap, so it has joined them, the
 * cgroups /proc/<pid>/cgroup names and their limit files. Empty once the sandbox has ended.
 */
export async function observeLimits(pid: number, clock: Clock = SYSTEM_CLOCK): Promise<ObservedLimits> {
  for (let waited = 0, wait = 1;; waited += wait, wait *= 2) {
    const exe = await Deno.readLink(`/proc/${pid}/exe`).catch(() => undefined);
    if (exe === undefined) return {};
    if (basename(exe) === "bwrap") break;
    if (waited >= START_MS) return {};
    await clock.sleep(wait);
  }
  const own = parseOwnCgroups(await Deno.readTextFile(`/proc/${pid}/cgroup`).catch(() => ""));
  const mounts = parseCgroupMounts(await Deno.readTextFile("/proc/self/mountinfo").catch(() => ""));
  let processes: number | undefined;
  let memory: number | undefined;
  for (const mount of mounts.filter((m) => m.root === "/")) {
    const path = mount.version === 2 ? own.get("") : mount.controllers.map((c) => own.get(c)).find(Boolean);
    if (path === undefined) continue;
    const dir = join(mount.at, path);
    processes ??= await bound(join(dir, "pids.max"));
    memory ??= await bound(join(dir, mount.version === 2 ? "memory.max" : "memory.limit_in_bytes"));
  }
  return { ...(processes !== undefined ? { processes } : {}), ...(memory !== undefined ? { memory } : {}) };
}

/** A limit file's bound; none for "max" or v1's "unlimited" (close to 2^63). */
async function bound(path: string): Promise<number | undefined> {
  const text = (await Deno.readTextFile(path).catch(() => "")).trim();
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 2 ** 62 ? undefined : value;
}
