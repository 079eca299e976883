import { join } from "node:path";
import { type Clock, LinkError } from "../core/base/mod.ts";
import { type CgroupPlace, cgroupPlaces, type Controller } from "./cgroups.ts";
import type { Limits } from "../core/spec/mod.ts";
import { makeSandboxCgroup, type SandboxCgroup } from "./sandbox_cgroup.ts";
import { managerEnv, scopeArgv, type UserScope, userScope } from "./user_scope.ts";

/** How one of a sandbox's limits holds. */
export type LimitHolder = "cgroup v2" | "cgroup v1" | "systemd scope" | "rlimit";

/** One limit of a sandbox: its value (tasks or bytes) and what holds it. */
export interface HeldLimit {
  readonly value: number;
  readonly by: LimitHolder;
  /** The cgroup's folder, for a cgroup Link made. */
  readonly dir?: string;
  /** The rlimit set, where it differs from the value (RLIMIT_NPROC: the value on top of the user's tasks). */
  readonly set?: number;
  /** The uid whose tasks RLIMIT_NPROC counts (the kernel lets uid 0 past it). */
  readonly uid?: number;
}

/** How each of a sandbox's limits holds. */
export interface HeldLimits {
  readonly processes: HeldLimit;
  readonly memory: HeldLimit;
  readonly fileSize: HeldLimit;
}

/** A sandbox's limits in place before it starts: run `prefix` before bubblewrap; dispose when it has ended. */
export interface LimitLauncher extends AsyncDisposable {
  readonly held: HeldLimits;
  /** Joins the cgroups (or a scope), then sets the rlimits, then runs the rest of the command line. */
  readonly prefix: readonly string[];
  /** Variables the prefix needs beyond the sandbox's own (the user manager's); gone again before bubblewrap. */
  readonly env: Readonly<Record<string, string>>;
}

/** Places and user manager to use instead of this machine's (tests). */
export interface HoldLimitsOptions {
  readonly places?: readonly CgroupPlace[];
  readonly scope?: UserScope | null;
  /** The uid of this machine the sandbox's programs run as (RLIMIT_NPROC counts its tasks); this process's unless told. */
  readonly uid?: number;
  /** Paces the removal of its cgroups (see removeCgroup). */
  readonly clock?: Clock;
}

/** Joins each cgroup.procs named before "--" (writing 0 moves the writer itself), then runs the rest. */
const JOIN = 'while [ "$1" != -- ]; do echo 0 > "$1" || exit 125; shift; done; shift; exec "$@"';

/**
 * Puts a sandbox's [limits] in place (issue 9): processes and memory by a cgroup Link makes (v2
 * where the unified hierarchy hands memory and pids down, else v1's), or, running as a user, a
 * scope of the user's systemd manager; what neither holds, and the size of one file always, by
 * rlimits: RLIMIT_NPROC (counted by the kernel per user across every user namespace, so it is
 * set to the limit plus the tasks the user runs now) and RLIMIT_DATA (each process's writable
 * memory; RLIMIT_AS would stop V8, which reserves far more address space than it uses).
 */
export async function holdLimits(
  limits: Limits,
  sandboxEnv: Readonly<Record<string, string>>,
  options: HoldLimitsOptions = {},
): Promise<LimitLauncher> {
  const prlimit = await findProgram("prlimit", sandboxEnv.PATH);
  const cgroup = await makeSandboxCgroup(limits, options.places ?? await cgroupPlaces(), options.clock);
  const scope = cgroup.procs.length || options.scope === null
    ? undefined
    : options.scope ?? await userScope();
  const holder = (controller: Controller): Omit<HeldLimit, "value"> => {
    const held = cgroup.held[controller];
    if (held) return { by: held.version === 2 ? "cgroup v2" : "cgroup v1", dir: held.dir };
    return scope?.controllers.includes(controller) ? { by: "systemd scope" } : { by: "rlimit" };
  };
  const processes: HeldLimit = { value: limits.processes, ...holder("pids") };
  const uid = options.uid ?? Deno.uid() ?? 0;
  const nproc = processes.by === "rlimit" ? limits.processes + await tasksOf(uid) : undefined;
  const held: HeldLimits = {
    processes: nproc === undefined ? processes : { ...processes, set: nproc, uid },
    memory: { value: limits.memory, ...holder("memory") },
    fileSize: { value: limits.file_size, by: "rlimit" },
  };
  const manager = scope ? managerEnv(scope, sandboxEnv) : { env: {}, unset: [] };
  const rlimits = [`--fsize=${limits.file_size}:${limits.file_size}`];
  if (nproc !== undefined) rlimits.push(`--nproc=${nproc}:${nproc}`);
  if (held.memory.by === "rlimit") rlimits.push(`--data=${limits.memory}:${limits.memory}`);
  return {
    held,
    prefix: [
      ...(cgroup.procs.length ? ["/bin/sh", "-c", JOIN, "lnk-limits", ...cgroup.procs, "--"] : []),
      ...(scope ? [...scopeArgv(limits), ...manager.unset] : []),
      prlimit,
      ...rlimits,
      "--",
    ],
    env: manager.env,
    [Symbol.asyncDispose]: () => removeQuietly(cgroup, options.clock),
  };
}

async function removeQuietly(cgroup: SandboxCgroup, clock?: Clock): Promise<void> {
  await cgroup.remove(clock).catch(() => {});
}

/** The tasks (threads) whose real uid is `uid`: what RLIMIT_NPROC counts. */
async function tasksOf(uid: number): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const status = await Deno.readTextFile(`/proc/${entry.name}/status`).catch(() => "");
    if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1) !== uid) continue;
    count += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  }
  return count;
}

async function findProgram(name: string, path = "/usr/bin:/bin"): Promise<string> {
  for (const dir of [...path.split(":"), "/usr/bin", "/bin"]) {
    if (!dir.startsWith("/")) continue;
    const info = await Deno.stat(join(dir, name)).catch(() => undefined);
    if (info?.isFile && (info.mode ?? 0) & 0o111) return join(dir, name);
  }
  throw new LinkError(
    "SANDBOX_UNAVAILABLE",
    `Cannot start a sandbox: ${name} (util-linux) is not installed`,
    {
      hint: "Install util-linux (`sudo apt-get install util-linux`), then start again",
    },
  );
}
