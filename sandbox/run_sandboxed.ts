import { type Clock, SYSTEM_CLOCK } from "../core/base/mod.ts";
import type { SandboxPlan } from "./plan_sandbox.ts";
import { closeInheritedFds } from "./inherited_fds.ts";
import { IdmappedMounts } from "./idmapped_mounts.ts";
import { openView } from "./open_view.ts";
import { type OutputFields, ProgramOutput } from "./program_output.ts";
import { PassedFds } from "./passed_fds.ts";
import { withSeccomp } from "./seccomp_filter.ts";
import { type HeldLimits, holdLimits, type HoldLimitsOptions } from "./hold_limits.ts";

/**
 * A sandboxed program's standard streams are never the caller's own descriptors (a directory on
 * stdin is a way out through /proc/self/fd/0/..; a file on stdout is the caller's to reopen):
 * "piped" gives them to the caller, "null" to /dev/null, "relay" copies this process's own
 * through pipes, and "log" (stdout and stderr) logs each line as the program's (ProgramOutput).
 */
export type SandboxStdin = "piped" | "null" | "relay";
export type SandboxStdout = "piped" | "null" | "relay" | "log";

/** util-linux's setsid: it execs the program in place, keeping its pid, when not a group leader. */
const SETSID = "setsid";

/** How a sandbox's standard streams are wired, and when it stops. */
export interface RunSandboxedOptions {
  /** "null" unless told. */
  stdin?: SandboxStdin;
  /** "null" unless told. */
  stdout?: SandboxStdout;
  /** "log" unless told. */
  stderr?: SandboxStdout;
  /** The agent the program runs for, named in the lines "log" writes. */
  agent?: string;
  /** The agents a sandbox serving several holds, which its logged lines may name (ProgramOutput). */
  members?: readonly string[];
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
 * descriptor but stdin, stdout and stderr, the mounts' own and the system call filter it reads at its
 * start (which holds for everything inside), after making the plan's mount points (openView: each
 * mount opened by descriptor, protected places kept, stand-ins removed at the end; as root, the
 * agent's folders and grants staged as idmapped copies, unmounted at the end), in the cgroups and
 * under the rlimits of its [limits] from its first instruction.
 */
export async function runSandboxed(
  plan: SandboxPlan,
  options: RunSandboxedOptions = {},
): Promise<SandboxProcess> {
  await using stack = new AsyncDisposableStack();
  // As root, the program's folders are shown through idmapped copies: their user namespace first.
  const idmapped = plan.owner ? stack.use(await IdmappedMounts.open(plan.owner)) : undefined;
  const limits = stack.use(
    await holdLimits(plan.limits, plan.env, { uid: plan.owner?.uid, ...options.limits }),
  );
  const stdin = options.stdin ?? "null";
  const stdout = options.stdout ?? "null";
  const stderr = options.stderr ?? "log";
  const pipe = (mode: SandboxStdin | SandboxStdout) => mode === "null" ? "null" : "piped";
  closeInheritedFds();
  let child: Deno.ChildProcess;
  {
    // Made, opened by descriptor and passed to bubblewrap in one synchronous stretch (openView),
    // with the filter's descriptor: each reaches bubblewrap alone, closed here at once after.
    using fds = new PassedFds();
    const view = openView(plan, fds, idmapped);
    stack.defer(() => view.release());
    const argv = [...limits.prefix, ...withSeccomp(view.argv, fds)];
    const [program, ...args] = options.ownSession ? [SETSID, ...argv] : argv;
    child = new Deno.Command(program!, {
      args,
      clearEnv: true,
      env: { ...limits.env, ...plan.env },
      stdin: pipe(stdin),
      stdout: pipe(stdout),
      stderr: pipe(stderr),
    }).spawn();
  }
  const held = stack.move();
  const copies = [
    stdin === "relay" ? relayIn(child, child.status) : undefined,
    stdout === "null" ? undefined : passOut(
      child.stdout,
      stdout,
      { agent: options.agent, members: options.members, stream: "stdout" },
      Deno.stdout,
    ),
    stderr === "null" ? undefined : passOut(
      child.stderr,
      stderr,
      { agent: options.agent, members: options.members, stream: "stderr" },
      Deno.stderr,
    ),
  ];
  // A relayed stream is all written out before the caller hears the program ended.
  const status = child.status.then(async (s) => {
    // The idmapped stage unmounted, the cgroups removed.
    await held.disposeAsync();
    await Promise.all(copies);
    return s;
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

/** Copies this process's stdin to the program until either ends. */
async function relayIn(child: Deno.ChildProcess, ended: Promise<unknown>): Promise<void> {
  const stop = new AbortController();
  ended.then(() => stop.abort());
  await Deno.stdin.readable.pipeTo(child.stdin, { signal: stop.signal, preventCancel: true }).catch(() => {});
  await child.stdin.close().catch(() => {});
}

/** Passes one of the program's outputs on as told: to this process's own, or to the log. */
function passOut(
  stream: ReadableStream<Uint8Array>,
  mode: SandboxStdout,
  fields: OutputFields,
  own: { writable: WritableStream<Uint8Array> },
): Promise<void> | undefined {
  if (mode === "relay") return stream.pipeTo(own.writable, { preventClose: true }).catch(() => {});
  if (mode === "log") return ProgramOutput.relay(stream, fields);
  return undefined;
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
