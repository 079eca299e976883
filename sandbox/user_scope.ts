import { dirname, join } from "node:path";
import { type Controller, parseCgroupMounts, parseOwnCgroups } from "./cgroups.ts";

/** A systemd user manager that puts a program in a scope of its own, and what it controls there. */
export interface UserScope {
  readonly controllers: readonly Controller[];
  /** What systemd-run needs to find the manager, passed to it alone. */
  readonly env: Readonly<Record<string, string>>;
}

const MANAGER_VARS = ["XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"] as const;

let found: Promise<UserScope | undefined> | undefined;

/**
 * The user's systemd manager, when Link runs as an ordinary user under one (its socket under
 * XDG_RUNTIME_DIR, systemd-run installed): tried once with a scope that prints its own cgroup,
 * whose parent says which controllers the manager was delegated. Undefined otherwise.
 */
export function userScope(): Promise<UserScope | undefined> {
  found ??= tryUserScope();
  return found;
}

async function tryUserScope(): Promise<UserScope | undefined> {
  const runtime = Deno.env.get("XDG_RUNTIME_DIR");
  if (Deno.uid() === 0 || !runtime) return undefined;
  if (!(await Deno.stat(join(runtime, "systemd", "private")).catch(() => undefined))) return undefined;
  const env: Record<string, string> = {};
  for (const name of MANAGER_VARS) {
    const value = Deno.env.get(name);
    if (value) env[name] = value;
  }
  try {
    const out = await new Deno.Command("systemd-run", {
      args: [...scopeArgv({ processes: 64, memory: 256 * 1024 * 1024 }), "cat", "/proc/self/cgroup"],
      clearEnv: true,
      env: { ...env, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      stdin: "null",
      stderr: "null",
    }).output();
    if (!out.success) return undefined;
    const path = parseOwnCgroups(new TextDecoder().decode(out.stdout)).get("");
    const mount = parseCgroupMounts(await Deno.readTextFile("/proc/self/mountinfo")).find((m) =>
      m.version === 2 && m.root === "/"
    );
    if (!path?.endsWith(".scope") || !mount) return undefined;
    const enabled = (await Deno.readTextFile(join(mount.at, dirname(path), "cgroup.subtree_control"))).split(
      /\s+/,
    );
    const controllers = (["memory", "pids"] as const).filter((c) => enabled.includes(c));
    return controllers.length ? { controllers, env } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * systemd-run's command line for a scope holding `limits`: the program runs in it from its start,
 * and the scope goes when its last process does (--collect even when it failed).
 */
export function scopeArgv(limits: { processes: number; memory: number }): string[] {
  return [
    "systemd-run",
    "--user",
    "--scope",
    "--quiet",
    "--collect",
    `--property=TasksMax=${limits.processes}`,
    `--property=MemoryMax=${limits.memory}`,
    "--property=MemorySwapMax=0",
    "--",
  ];
}

/**
 * The variables systemd-run is started with beside the sandbox's own, and the command line that
 * takes them away again before bubblewrap, which must get the sandbox's alone.
 */
export function managerEnv(
  scope: UserScope,
  sandboxEnv: Readonly<Record<string, string>>,
): { env: Record<string, string>; unset: string[] } {
  const added = Object.keys(scope.env).filter((name) => !(name in sandboxEnv));
  return {
    env: Object.fromEntries(added.map((name) => [name, scope.env[name]!])),
    unset: added.length ? ["env", ...added.flatMap((name) => ["-u", name]), "--"] : [],
  };
}
