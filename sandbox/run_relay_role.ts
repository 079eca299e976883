import { announceReady, logger, roleArgv } from "../core/base/mod.ts";
import { parseRelayArgs } from "./relay_rule.ts";
import { type Relay, serveRelay } from "./relay.ts";
import { ConfinedSpawner, type SpawnedChild } from "./confined_spawner.ts";
import { execScoped } from "./exec_scoped.ts";

const log = logger("relay");

/** One of Link's roles, as main.ts maps them: its words' arguments and the signal that stops it. */
export type LinkRole = (args: string[], signal: AbortSignal) => Promise<number>;

/** What the relay role may run in its own process. */
export interface RelayRoleOptions {
  /**
   * Link's own roles by their words ("harness serve"), as main.ts maps them: a command that is
   * one of them, started as Link starts its roles, runs in this process rather than as a second
   * program, so a sandbox holds one Link process and starts the time of one (PRC-13).
   */
  readonly roles?: (words: string) => (() => Promise<LinkRole>) | undefined;
  /**
   * This process is the launcher alone (the `lnk sandbox relay` role): relaying nothing, it may
   * give itself up to the program (execScoped). Never when the role runs in a process of other
   * work (a test's), which the exec would replace.
   */
  readonly exec?: boolean;
}

const FORWARDED: Deno.Signal[] = ["SIGTERM", "SIGINT", "SIGHUP"];
const SIGNAL_NUMBER: Partial<Record<Deno.Signal, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * `lnk sandbox relay [--tcp <port>=<socket>]... [--unix <socket>=<port>]... [-- <command>]`: the
 * relays inside a sandbox (SBX-7). It listens first, then runs the command, so the command never
 * finds its proxy missing; it passes on SIGTERM, SIGINT and SIGHUP and exits with the command's
 * code. Without a command it prints its ready line and relays until stopped.
 */
export async function runRelayRole(
  args: readonly string[],
  signal?: AbortSignal,
  options: RelayRoleOptions = {},
): Promise<number> {
  const dash = args.indexOf("--");
  const rules = parseRelayArgs(dash >= 0 ? args.slice(0, dash) : args);
  const command = dash >= 0 ? args.slice(dash + 1) : [];
  const relays: Relay[] = [];
  try {
    for (const rule of rules) relays.push(await serveRelay(rule, { signal }));
    if (command.length === 0) {
      announceReady({ ports: relays.map((r) => r.port ?? null) });
      await aborted(signal);
      return 0;
    }
    const own = ownRole(command, options);
    if (own) return await own.load().then((role) => role(own.args, signal ?? new AbortController().signal));
    // Relaying nothing, the launcher has nothing left to do: the program takes its place.
    if (relays.length === 0 && options.exec) return cannotRun(command, execScoped(command));
    return await runChild(command, signal);
  } finally {
    await Promise.all(relays.map((r) => r[Symbol.asyncDispose]()));
  }
}

/** The role a command names when it starts Link itself (roleArgv's form) with a role's words. */
function ownRole(
  command: readonly string[],
  options: RelayRoleOptions,
): { load: () => Promise<LinkRole>; args: string[] } | undefined {
  const prefix = roleArgv([]);
  if (!options.roles || command.length < prefix.length + 2) return undefined;
  if (prefix.some((word, i) => command[i] !== word)) return undefined;
  const words = command.slice(prefix.length, prefix.length + 2).join(" ");
  const load = words === "sandbox relay" ? undefined : options.roles(words);
  return load && { load, args: command.slice(prefix.length + 2) };
}

/**
 * Runs the command from a Landlock domain of its own (ConfinedSpawner.scoped): it and everything it
 * starts can ptrace, signal or open the memory of nothing outside it, so neither this launcher nor
 * the sandbox's pid 1 is ever stopped or changed by the program (a stopped pid 1 would hold the
 * sandbox open after the program ended).
 */
async function runChild(command: readonly string[], signal?: AbortSignal): Promise<number> {
  const [program, ...rest] = command;
  await using spawner = await ConfinedSpawner.scoped();
  // A signal that comes while the program is being started is passed on once it is.
  let child: SpawnedChild | undefined;
  let pending: Deno.Signal | undefined;
  const pass = (sig: Deno.Signal) => {
    if (!child) return void (pending = sig);
    try {
      child.kill(sig);
    } catch { /* exited */ }
  };
  const handlers = FORWARDED.map((sig) => {
    const forward = () => pass(sig);
    Deno.addSignalListener(sig, forward);
    return [sig, forward] as const;
  });
  const onAbort = () => pass("SIGTERM");
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    try {
      child = await spawner.spawn(program!, { args: rest, stdin: "inherit" });
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied)) throw err;
      return cannotRun(command, err instanceof Deno.errors.NotFound ? 127 : 126);
    }
    if (signal?.aborted) pending ??= "SIGTERM";
    if (pending) pass(pending);
    const status = await child.status;
    return status.signal ? 128 + (SIGNAL_NUMBER[status.signal] ?? 0) : status.code;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    for (const [sig, forward] of handlers) Deno.removeSignalListener(sig, forward);
  }
}

/** Says a command could not be run, and returns the shell's code for it (127 not there, 126 not a program). */
function cannotRun(command: readonly string[], code: number): number {
  log.error("Cannot run the command in the sandbox: it is not there or not a program", {
    program: command[0],
  });
  return code;
}

function aborted(signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
