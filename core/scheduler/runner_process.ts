import { LinkError, readReadyLine, roleArgv, RoleExited } from "../base/mod.ts";

/** A runner this process started: its zone, its PID, its end. */
export interface RunnerProcess extends AsyncDisposable {
  readonly zone: string;
  readonly pid: number;
  /** Resolves when it exits, for whatever reason. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Asks it to end (it lets firings under way finish) and waits until it has. */
  stop(): Promise<void>;
}

/**
 * Starts `lnk scheduler runner` for a zone as this process's child, its `TZ` set to the zone (a
 * runner's times are its process's zone, set once as it starts), and waits for its ready line.
 * Its stdin stays open: when this process ends however it ends, the runner sees it close and ends
 * too. Its log lines go to this process's stderr (the bridge's log).
 */
export async function startRunner(zone: string, options: { file?: string } = {}): Promise<RunnerProcess> {
  const role = ["scheduler", "runner", "--tz", zone, "--with-parent"];
  if (options.file) role.push("--file", options.file);
  const [exe, ...args] = roleArgv(role);
  const child = new Deno.Command(exe!, {
    args,
    env: { TZ: zone },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const status = child.status;
  try {
    await readReadyLine(child.stdout, status);
  } catch (err) {
    await stdin.close().catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch { /* gone already */ }
    await status;
    // What the runner said of its failure keeps its code; else it never said why.
    const said = err instanceof RoleExited && err.said instanceof LinkError ? err.said : undefined;
    throw new LinkError(
      said?.code ?? (err instanceof RoleExited && err.said === "garbled" ? "INTERNAL" : "SERVICE_FAILED"),
      `Cannot start the scheduler runner of "${zone}": ${said?.message ?? (err as Error).message}`,
      {
        hint: said?.hint ?? "Run `lnk agent logs` to see what it said",
        cause: err,
      },
    );
  }
  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      await stdin.close().catch(() => {});
      try {
        child.kill("SIGTERM");
      } catch { /* gone already */ }
      await status;
    })();
  return { zone, pid: child.pid, status, stop, [Symbol.asyncDispose]: stop };
}
