import { type Clock, SYSTEM_CLOCK } from "../core/base/mod.ts";
import type { SandboxPlan } from "./plan_sandbox.ts";
import { closeInheritedFds } from "./inherited_fds.ts";
import { PassedFds } from "./passed_fds.ts";
import { withSeccomp } from "./seccomp_filter.ts";
import { type HeldLimits, holdLimits, type HoldLimitsOptions } from "./hold_limits.ts";

type Stdio = "inherit" | "piped" | "null";

/** util-linux's setsid: it execs the program in place, keeping its pid, when not a group leader. */
const SETSID = "setsid";

/** How a sandbox's standard streams are wired, and when it stops. */
export interface RunSandboxedOptions {
  stdin?: Stdio;
  stdout?: Stdio;
  stderr?: Stdio;
  /** Stops the sandbox (as stop()) when it aborts. */
  signal?: AbortSignal;
  /**
   * Starts bubblewrap in a session of its own (`setsid`), so a signal to the caller's process
   * group (its service being stopped) reaches the program only through stop(), which lets it end
   * cleanly, never by bubblewrap dying under it; --die-with-parent still ends it with the caller.
   */
  ownSession?: boolean;
  /** How long stop() waits after SIGTERM before killing; 5 s unless told. */
  graceMs?: number;
  clock?: Clock;
  /** Where its limits are held instead of this machine's cgroups and user manager (tests). */
  limits?: HoldLimitsOptions;
}

/** A running sandbox. */
export interface SandboxProcess extends AsyncDisposable {
  /** bubblewrap's process; its pipes are the program's when asked for. */
  readonly child: Deno.ChildProcess;
  readonly pid: number;
  /** Settles once the sandbox has ended and its cgroups are gone. */
  readonly status: Promise<Deno.CommandStatus>;
  /** How each of its limits holds. */
  readonly limits: HeldLimits;
  /**
   * Sends the program inside `signal` (SIGTERM unless told), waits up to the grace time, then
   * kills bubblewrap, which takes everything inside with it (--die-with-parent, its PID namespace).
   */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts bubblewrap from a clean environment holding only the plan's variables, with no
 * descriptor but stdin, stdout and stderr (and the system call filter it reads at its start,
 * which holds for everything inside), after making the plan's mount points, in the cgroups and
 * under the rlimits of its [limits] from its first instruction.
 */
export async function runSandboxed(
  plan: SandboxPlan,
  options: RunSandboxedOptions = {},
): Promise<SandboxProcess> {
  for (const dir of plan.ensureDirs) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  await using stack = new AsyncDisposableStack();
  const limits = stack.use(await holdLimits(plan.limits, plan.env, options.limits));
  closeInheritedFds();
  let child: Deno.ChildProcess;
  {
    // The filter's descriptor reaches bubblewrap alone: made, inherited and closed here at once.
    using fds = new PassedFds();
    const argv = [...limits.prefix, ...withSeccomp(plan.argv, fds)];
    const [program, ...args] = options.ownSession ? [SETSID, ...argv] : argv;
    child = new Deno.Command(program!, {
      args,
      clearEnv: true,
      env: { ...limits.env, ...plan.env },
      stdin: options.stdin ?? "inherit",
      stdout: options.stdout ?? "inherit",
      stderr: options.stderr ?? "inherit",
    }).spawn();
  }
  const held = stack.move();
  const status = child.status.then(async (status) => {
    await held.disposeAsync();
    return status;
  });
  const clock = options.clock ?? SYSTEM_CLOCK;
  const graceMs = options.graceMs ?? 5000;
  let stopping: Promise<Deno.CommandStatus> | undefined;
  const stop = (signal: Deno.Signal = "SIGTERM") => {
    stopping ??= stopChild(child, status, signal, clock, graceMs);
    return stopping;
  };
  const onAbort = () => void stop();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  status.finally(() => options.signal?.removeEventListener("abort", onAbort));
  return {
    child,
    pid: child.pid,
    status,
    limits: limits.held,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

async function stopChild(
  child: Deno.ChildProcess,
  status: Promise<Deno.CommandStatus>,
  signal: Deno.Signal,
  clock: Clock,
  graceMs: number,
): Promise<Deno.CommandStatus> {
  const inner = signal === "SIGKILL" ? undefined : await innerPid(child.pid);
  try {
    if (inner !== undefined) Deno.kill(inner, signal);
    else child.kill(signal === "SIGKILL" ? "SIGKILL" : signal);
  } catch { /* gone already */ }
  const timer = new AbortController();
  const late = clock.sleep(graceMs, timer.signal).then(() => "late" as const, () => "done" as const);
  const first = await Promise.race([status.then(() => "done" as const), late]);
  timer.abort();
  if (first === "late") {
    try {
      child.kill("SIGKILL");
    } catch { /* gone already */ }
  }
  return await status;
}

/** The program's pid: bubblewrap's child is the sandbox's pid 1, whose child is the program. */
async function innerPid(pid: number): Promise<number | undefined> {
  let current = pid;
  for (let level = 0; level < 2; level++) {
    const text = await Deno.readTextFile(`/proc/${current}/task/${current}/children`).catch(() => "");
    const next = Number(text.trim().split(/\s+/)[0]);
    if (!Number.isInteger(next) || next <= 0) return undefined;
    current = next;
  }
  return current;
}
