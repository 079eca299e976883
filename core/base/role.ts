import { fileUrlPath } from "./file_path.ts";
import { LinkError } from "./errors.ts";
import { logger } from "./log.ts";

const log = logger("role");

/** The line a role prints on stdout once it listens; its parent waits for this, never for time. */
export const READY_PREFIX = "LINK-READY ";

const MAIN_PATH = fileUrlPath(new URL("../../main.ts", import.meta.url));
const CONFIG_PATH = fileUrlPath(new URL("../../deno.json", import.meta.url));

/**
 * The full command line that runs one of Link's roles: the binary itself when compiled, else
 * `deno run` of main.ts, so every role works from a checkout, in tests and compiled.
 */
export function roleArgv(roleArgs: readonly string[]): string[] {
  if (Deno.build.standalone) return [Deno.execPath(), ...roleArgs];
  return [Deno.execPath(), "run", "-A", "--cached-only", "--config", CONFIG_PATH, MAIN_PATH, ...roleArgs];
}

/**
 * What a role needs in its environment to run from source wherever HOME points: Deno's cache,
 * which otherwise moves with HOME. Empty when compiled.
 */
export function roleEnv(): Record<string, string> {
  if (Deno.build.standalone) return {};
  const env = Deno.env.toObject();
  if (env.DENO_DIR) return { DENO_DIR: env.DENO_DIR };
  const cache = Deno.build.os === "darwin"
    ? `${env.HOME}/Library/Caches`
    : env.XDG_CACHE_HOME ?? `${env.HOME}/.cache`;
  return { DENO_DIR: `${cache}/deno` };
}

/** Prints the ready line a parent waits for. Call once, when the role listens. */
export function announceReady(info: Record<string, unknown> = {}): void {
  const line = new TextEncoder().encode(`${READY_PREFIX}${JSON.stringify(info)}\n`);
  try {
    Deno.stdout.writeSync(line);
  } catch (err) {
    // A parent that stopped waiting is no reason to stop serving.
    log.debug("Nobody read the ready line", { error: err });
  }
}

/** A role's exit code when the port it was to hold is taken, so its starter can move it (PRT-4). */
export const PORT_TAKEN_EXIT = 3;

/** Why a role was never ready: it exited first, with this code. */
export class RoleExited extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`it exited with code ${code} before it was ready`);
    this.code = code;
  }
}

/** A role started by spawnRole: its process and what its ready line said. */
export interface RoleProcess extends AsyncDisposable {
  readonly child: Deno.ChildProcess;
  readonly pid: number;
  readonly ready: Record<string, unknown>;
  /** Everything the role wrote to stderr so far (its log lines). */
  stderrText(): string;
  /** Sends SIGTERM and waits for the exit. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/** Options for spawnRole. */
export interface SpawnRoleOptions {
  env?: Record<string, string>;
  clearEnv?: boolean;
  cwd?: string;
  /** Gives up waiting for the ready line when this aborts. */
  signal?: AbortSignal;
  /** Prefix the command line (e.g. `setsid`). */
  wrap?: string[];
  /** The arguments are a whole command line already (from roleArgv), not a role's words. */
  raw?: boolean;
  /** "inherit" sends the role's log lines straight to ours (a service's log file). */
  stderr?: "piped" | "inherit";
  /** Text written to the role's stdin, which is then closed (secrets travel this way, never in argv). */
  input?: string;
}

/** Starts a role as a child and waits for its ready line; throws SERVICE_FAILED if it exits first. */
export async function spawnRole(
  roleArgs: readonly string[],
  options: SpawnRoleOptions = {},
): Promise<RoleProcess> {
  const [exe, ...args] = [...(options.wrap ?? []), ...(options.raw ? roleArgs : roleArgv(roleArgs))];
  const child = new Deno.Command(exe!, {
    args,
    env: options.env,
    clearEnv: options.clearEnv,
    cwd: options.cwd,
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
  if (options.input !== undefined) writeInput(child.stdin, options.input);
  let stderr = "";
  const stderrDone = options.stderr === "inherit"
    ? Promise.resolve()
    : collect(child.stderr, (text) => (stderr += text));
  const status = child.status;
  const ready = await readReadyLine(child.stdout, status, { signal: options.signal }).catch(async (err) => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone already */ }
    await status;
    await stderrDone;
    throw new LinkError("SERVICE_FAILED", `Cannot start "${roleArgs.join(" ")}": ${err.message}`, {
      hint: `Its last words:\n${stderr.trim().split("\n").slice(-8).join("\n") || "(none)"}`,
      cause: err,
    });
  });
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    try {
      child.kill(signal);
    } catch { /* gone already */ }
    const s = await status;
    await stderrDone;
    return s;
  };
  return {
    child,
    pid: child.pid,
    ready,
    stderrText: () => stderr,
    stop,
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

function writeInput(stdin: WritableStream<Uint8Array>, text: string): void {
  const writer = stdin.getWriter();
  writer.write(new TextEncoder().encode(text)).then(() => writer.close()).catch(() => {});
}

async function collect(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
}

/**
 * Reads a role's stdout until its ready line and returns what it says, never waiting for time:
 * throws RoleExited when the role ends first. Every other line, then and later, goes to
 * `onOther` (dropped unless given), so a chatty role never blocks on a full pipe.
 */
export async function readReadyLine(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
  options: { signal?: AbortSignal; onOther?: (text: string) => void } = {},
): Promise<Record<string, unknown>> {
  const { signal, onOther = () => {} } = options;
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const exited = status.then((s): never => {
    throw new RoleExited(s.code);
  });
  exited.catch(() => {});
  const aborted = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(new Error("the wait was stopped"));
    signal?.addEventListener("abort", () => reject(new Error("the wait was stopped")), { once: true });
  });
  aborted.catch(() => {});
  try {
    while (true) {
      const chunk = await Promise.race([reader.read(), exited, aborted]);
      if (chunk.done) return await Promise.race([exited, aborted]);
      buffer += chunk.value;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith(READY_PREFIX)) {
          forward(reader, buffer, onOther);
          return JSON.parse(line.slice(READY_PREFIX.length));
        }
        onOther(`${line}\n`);
      }
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  }
}

function forward(
  reader: ReadableStreamDefaultReader<string>,
  rest: string,
  onOther: (text: string) => void,
): void {
  if (rest) onOther(rest);
  (async () => {
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) onOther(chunk.value);
    } catch { /* closed */ }
  })();
}
