import { join } from "node:path";

/** The controllers a sandbox's cgroup holds limits with. */
export type Controller = "memory" | "pids";
const CONTROLLERS: readonly Controller[] = ["memory", "pids"];

/** Where this process may make cgroups for its sandboxes: one folder, and what it controls there. */
export interface CgroupPlace {
  readonly version: 1 | 2;
  /** The folder new cgroups are made in: this process's own cgroup (v1), or the nearest above it with the controllers on (v2). */
  readonly dir: string;
  readonly controllers: readonly Controller[];
}

/** Where the cgroup file system is and which cgroups this process is in (tests point it at a tree of their own). */
export interface CgroupSource {
  readonly mountinfo: string;
  readonly cgroup: string;
}

const SELF: CgroupSource = { mountinfo: "/proc/self/mountinfo", cgroup: "/proc/self/cgroup" };

/**
 * The places this process may make sandbox cgroups in, per its mounts and its own cgroups: each
 * v1 hierarchy of memory or pids, at this process's cgroup in it (limits above it still hold); the
 * v2 hierarchy at the nearest cgroup above this process's own whose children get memory or pids
 * (v2 lets no cgroup both hold processes and hand controllers down).
 */
export async function cgroupPlaces(source: CgroupSource = SELF): Promise<CgroupPlace[]> {
  const own = parseOwnCgroups(await readOr(source.cgroup));
  const places: CgroupPlace[] = [];
  for (const mount of parseCgroupMounts(await readOr(source.mountinfo))) {
    const path = mount.version === 2 ? own.get("") : mount.controllers.map((c) => own.get(c)).find(Boolean);
    if (path === undefined) continue;
    const rel = relativeTo(path, mount.root);
    if (rel === undefined) continue;
    if (mount.version === 1) {
      const controllers = CONTROLLERS.filter((c) => mount.controllers.includes(c));
      if (controllers.length) places.push({ version: 1, dir: under(mount.at, rel), controllers });
      continue;
    }
    // Upward from this process's own cgroup to the mount, the first that hands memory or pids down.
    for (let dir = under(mount.at, rel);; dir = join(dir, "..")) {
      const enabled = (await readOr(join(dir, "cgroup.subtree_control"))).split(/\s+/);
      const controllers = CONTROLLERS.filter((c) => enabled.includes(c));
      if (controllers.length) {
        places.push({ version: 2, dir, controllers });
        break;
      }
      if (dir === mount.at || !dir.startsWith(mount.at)) break;
    }
  }
  return places;
}

interface CgroupMount {
  readonly version: 1 | 2;
  /** Where it is mounted, and which cgroup of the hierarchy that is. */
  readonly at: string;
  readonly root: string;
  readonly controllers: readonly string[];
}

/** The cgroup mounts of /proc/self/mountinfo: v1 ones with their controllers (super options), v2. */
export function parseCgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const fields = left.split(" ");
    const [fstype, , options] = right.split(" ");
    const root = unescape(fields[3] ?? "");
    const at = unescape(fields[4] ?? "");
    if (fstype === "cgroup2") mounts.push({ version: 2, at, root, controllers: [] });
    else if (fstype === "cgroup") {
      mounts.push({ version: 1, at, root, controllers: (options ?? "").split(",") });
    }
  }
  return mounts;
}

/** This process's cgroup by controller ("" for v2) from /proc/self/cgroup. */
export function parseOwnCgroups(text: string): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(\/.*)$/.exec(line);
    if (!match) continue;
    for (const controller of match[1]!.split(",")) own.set(controller, match[2]!);
  }
  return own;
}

function under(at: string, rel: string): string {
  return rel === "/" ? at : join(at, rel);
}

function relativeTo(path: string, root: string): string | undefined {
  if (root === "/") return path;
  if (path === root) return "/";
  return path.startsWith(`${root}/`) ? path.slice(root.length) : undefined;
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescape(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
}

async function readOr(path: string): Promise<string> {
  return await Deno.readTextFile(path).catch(() => "");
}
