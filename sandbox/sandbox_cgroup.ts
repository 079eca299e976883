import { join } from "node:path";
import { type Clock, logger, SYSTEM_CLOCK } from "../core/base/mod.ts";
import type { CgroupPlace, Controller } from "./cgroups.ts";

const log = logger("sandbox");

/** One controller's cgroup of a sandbox. */
export interface HeldBy {
  readonly version: 1 | 2;
  readonly dir: string;
}

/** The cgroups one sandbox runs in, made before it starts; remove() once it has ended. */
export interface SandboxCgroup {
  /** The cgroup.procs files its launcher joins before bubblewrap starts, so nothing inside escapes them. */
  readonly procs: readonly string[];
  readonly held: Readonly<Partial<Record<Controller, HeldBy>>>;
  remove(clock?: Clock): Promise<void>;
}

/** What a sandbox's cgroups hold it to. */
export interface CgroupLimits {
  readonly memory: number;
  readonly processes: number;
}

let made = 0;

/**
 * Makes a sandbox's cgroups in `places`: each controller in the v2 place that has it, else in the
 * v1 one, with the limits written, swap included (none: the memory bound is the bound). A place
 * this process may not write is passed over, its controllers left to rlimits. Each folder is named
 * `lnk-<pid namespace>-<pid>-<n>`; first, the folders there of Link processes that are gone
 * (killed before they removed theirs) are removed, whatever they still held killed.
 */
export async function makeSandboxCgroup(
  limits: CgroupLimits,
  places: readonly CgroupPlace[],
  clock: Clock = SYSTEM_CLOCK,
): Promise<SandboxCgroup> {
  const chosen = new Map<CgroupPlace, Controller[]>();
  for (const controller of ["memory", "pids"] as const) {
    const place = places.find((p) => p.version === 2 && p.controllers.includes(controller)) ??
      places.find((p) => p.version === 1 && p.controllers.includes(controller));
    if (place) chosen.set(place, [...chosen.get(place) ?? [], controller]);
  }
  const prefix = `lnk-${await pidNamespace()}-`;
  const held: Partial<Record<Controller, HeldBy>> = {};
  const dirs: string[] = [];
  for (const [place, controllers] of chosen) {
    await sweepStale(place.dir, prefix, clock);
    const dir = await makeDir(place.dir, `${prefix}${Deno.pid}-`);
    if (!dir) continue;
    try {
      for (const controller of controllers) await writeLimit(place.version, dir, controller, limits);
    } catch (err) {
      log.debug("Cannot set a sandbox cgroup's limits", { dir, error: String(err) });
      await Deno.remove(dir).catch(() => {});
      continue;
    }
    dirs.push(dir);
    for (const controller of controllers) held[controller] = { version: place.version, dir };
  }
  return {
    procs: dirs.map((dir) => join(dir, "cgroup.procs")),
    held,
    async remove(clock = SYSTEM_CLOCK) {
      for (const dir of dirs.splice(0)) await removeCgroup(dir, clock);
    },
  };
}

/** A new folder `<prefix><n>` in `parent` (one left by a Link of the same pid before is passed over). */
async function makeDir(parent: string, prefix: string): Promise<string | undefined> {
  for (;;) {
    const dir = join(parent, `${prefix}${made++}`);
    try {
      await Deno.mkdir(dir);
      return dir;
    } catch (err) {
      if (err instanceof Deno.errors.AlreadyExists) continue;
      log.debug("Cannot make a cgroup for a sandbox", { dir, error: String(err) });
      return undefined;
    }
  }
}

async function writeLimit(version: 1 | 2, dir: string, controller: Controller, limits: CgroupLimits) {
  if (controller === "pids") return await Deno.writeTextFile(join(dir, "pids.max"), String(limits.processes));
  const bytes = String(limits.memory);
  if (version === 2) {
    await Deno.writeTextFile(join(dir, "memory.max"), bytes);
    await writeIfThere(join(dir, "memory.swap.max"), "0");
  } else {
    await Deno.writeTextFile(join(dir, "memory.limit_in_bytes"), bytes);
    await writeIfThere(join(dir, "memory.memsw.limit_in_bytes"), bytes);
  }
}

async function writeIfThere(path: string, text: string): Promise<void> {
  try {
    await Deno.writeTextFile(path, text, { create: false });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}

/** How long a cgroup's last tasks may take to leave it after the sandbox was reaped, in all. */
const LEAVE_MS = 2000;

/**
 * Removes a cgroup once its tasks have left it. The kernel unlinks a dead task from its cgroup
 * after its last switch, so the sandbox's last ones may still count a moment after bubblewrap was
 * reaped: the removal is tried again, a little later each time. A task still listed (none should
 * be: its PID namespace ended) is killed. What cannot be removed is left to the next Link's sweep.
 */
async function removeCgroup(dir: string, clock: Clock): Promise<void> {
  let waited = 0;
  for (let wait = 1;; wait *= 2) {
    try {
      await Deno.remove(dir);
      return;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      if (waited >= LEAVE_MS) {
        log.warn("Cannot remove a sandbox's cgroup", { dir, error: String(err) });
        return;
      }
    }
    const pids = (await Deno.readTextFile(join(dir, "cgroup.procs")).catch(() => "")).split("\n");
    for (const pid of pids.filter(Boolean)) {
      try {
        Deno.kill(Number(pid), "SIGKILL");
      } catch { /* gone */ }
    }
    await clock.sleep(wait);
    waited += wait;
  }
}

/** Removes the sandbox cgroups of Link processes of this PID namespace that are gone. */
async function sweepStale(parent: string, prefix: string, clock: Clock): Promise<void> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(parent)) if (entry.isDirectory) names.push(entry.name);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    if (!Number.isInteger(pid) || await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) continue;
    await removeCgroup(join(parent, name), clock);
  }
}

/** This process's PID namespace, so a sweep never takes a folder of a live Link it cannot see. */
async function pidNamespace(): Promise<string> {
  const link = await Deno.readLink("/proc/self/ns/pid").catch(() => "");
  return /\[(\d+)\]/.exec(link)?.[1] ?? "0";
}
