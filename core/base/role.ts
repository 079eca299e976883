import { CONFIG_PATH, MAIN_PATH } from "./checkout.ts";
import { LinkError } from "./errors.ts";
import { ERROR_PREFIX, readErrorLine, ROLE_LOGS_HINT, writeStdoutLine } from "./role_error.ts";
import { logger } from "./log.ts";
import { moduleLoadFailure } from "./module_load.ts";

const log = logger("role");

/** The line a role prints on stdout once it listens; its parent waits for this, never for time. */
export const READY_PREFIX = "LINK-READY ";

/**
 * The command line that runs Link from its checkout: exactly what deno.lock pins (`--frozen`), from
 * Deno's cache alone (`--cached-only`), so nothing is resolved or fetched as it starts. `lnk` itself
 * (the shim `deno task install-lnk` writes) and every role it starts run this same line.
 */
export function sourceArgv(): string[] {
  return [Deno.execPath(), "run", "-A", "--frozen", "--cached-only", "--config", CONFIG_PATH, MAIN_PATH];
}

/**
 * The full command line that runs one of Link's roles: the binary itself when compiled, else
 * `deno run` of main.ts, so every role works from a checkout, in tests and compiled.
 */
export function roleArgv(roleArgs: readonly string[], standalone = Deno.build.standalone): string[] {
  if (standalone) return [Deno.execPath(), ...roleArgs];
  return [...sourceArgv(), ...roleArgs];
}

/**
 * What a role needs in its environment to run from source wherever HOME points: Deno's cache,
 * which otherwise moves with HOME, and the npm registry it was filled from when one is set (the
 * cache keeps each registry's packages apart). Empty when compiled.
 */
export function roleEnv(): { DENO_DIR?: string; NPM_CONFIG_REGISTRY?: string } {
  if (Deno.build.standalone) return {};
  const env = Deno.env.toObject();
  const registry = env.NPM_CONFIG_REGISTRY ? { NPM_CONFIG_REGISTRY: env.NPM_CONFIG_REGISTRY } : {};
  if (env.DENO_DIR) return { DENO_DIR: env.DENO_DIR, ...registry };
  const cache = Deno.build.os === "darwin"
    ? `${env.HOME}/Library/Caches`
    : env.XDG_CACHE_HOME ?? `${env.HOME}/.cache`;
  return { DENO_DIR: `${cache}/deno`, ...registry };
}

/** Prints the ready line a parent waits for. Call once, when the role listens. */
export function announceReady(info: Record<string, unknown> = {}): void {
  try {
    writeStdoutLine(`${READY_PREFIX}${JSON.stringify(info)}\n`);
  } catch (err) {
    // A parent that stopped waiting is no reason to stop serving.
    log.debug("Nobody read the ready line", { error: err });
  }
}

/** A role's exit code when the port it was to hold is taken, so its starter can move it (PRT-4). */
export const PORT_TAKEN_EXIT = 3;

/**
 * Why a role was never ready: it exited first, with this code, and said why on its error line
 * (`said`), or printed one that could not be read (`said` is "garbled").
 */
export class RoleExited extends Error {
  readonly code: number;
  readonly said: LinkError | "garbled" | undefined;
  constructor(code: number, said?: LinkError | "garbled") {
    super(
      `it exited with code ${code} before it was ready` +
        (said === "garbled" ? ", and its error line could not be read" : ""),
    );
    this.code = code;
    this.said = said;
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

/**
 * Starts a role as a child and waits for its ready line. A role that exits first throws the error
 * it said on its error line, with its own code (the RoleExited as cause); one that said none
 * SERVICE_FAILED, and one whose line cannot be read INTERNAL.
 */
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
    throw roleFailure(roleArgs, err, stderr);
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

/** The error a role's start fails with: what the role said, else why it was never ready. */
function roleFailure(roleArgs: readonly string[], err: Error, stderr: string): LinkError {
  const said = err instanceof RoleExited ? err.said : undefined;
  const unloaded = err instanceof RoleExited && said === undefined
    ? moduleLoadFailure(roleArgs, stderr)
    : undefined;
  if (unloaded) return unloaded;
  if (said instanceof LinkError) {
    return new LinkError(said.code, said.message, { hint: said.hint ?? ROLE_LOGS_HINT, cause: err });
  }
  const code = said === "garbled" ? "INTERNAL" : "SERVICE_FAILED";
  return new LinkError(code, `Cannot start "${roleArgs.join(" ")}": ${err.message}`, {
    hint: ROLE_LOGS_HINT,
    cause: err,
  });
}

function writeInput(stdin: WritableStream<Uint8Array>, text: string): void {
  const writer = stdin.getWriter();
  writer.write(new TextEncoder().encode(text)).then(() => writer.close()).catch(() => {});
}

async function collect(stream: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
}

/** What readReadyLine takes besides the stream and the exit. */
export interface ReadReadyOptions {
  /** Gives up waiting when this aborts. */
  signal?: AbortSignal;
  /** Gets every other line, then and later (dropped unless given). */
  onOther?: (text: string) => void;
  /**
   * "read" (the default): an error line is the role's word on why it failed, thrown as
   * RoleExited's `said`. "output": the stream is not the role's alone (a sandbox's stdout, where
   * any program in it may write), so an error line is only output, given to `onOther`.
   */
  errorLines?: "read" | "output";
}

const EXITED: unique symbol = Symbol("exited");

/**
 * Reads a role's stdout until its ready line and returns what it says, never waiting for time:
 * throws RoleExited when the role ends first, with what its error line said (read to the end of
 * its stdout, as the line comes just before the exit). Every other line, then and later, goes to
 * `onOther`, so a chatty role never blocks on a full pipe.
 */
export async function readReadyLine(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
  options: ReadReadyOptions = {},
): Promise<Record<string, unknown>> {
  const { signal, onOther = () => {}, errorLines = "read" } = options;
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  const exited = status.then((): typeof EXITED => EXITED);
  const aborted = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(new Error("the wait was stopped"));
    signal?.addEventListener("abort", () => reject(new Error("the wait was stopped")), { once: true });
  });
  aborted.catch(() => {});
  let ended: Deno.CommandStatus | undefined;
  let said: LinkError | "garbled" | undefined;
  let buffer = "";
  let pending = reader.read();
  try {
    while (true) {
      const next = await Promise.race(ended ? [pending, aborted] : [pending, exited, aborted]);
      if (next === EXITED) {
        ended = await status;
        if (said) throw new RoleExited(ended.code, said);
        continue; // its error line may still be in the pipe: read on to its end
      }
      if (next.done) throw new RoleExited((ended ??= await Promise.race([status, aborted])).code, said);
      pending = reader.read();
      buffer += next.value;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!ended && line.startsWith(READY_PREFIX)) {
          forward(reader, pending, buffer, onOther);
          return JSON.parse(line.slice(READY_PREFIX.length));
        }
        if (errorLines === "read" && line.startsWith(ERROR_PREFIX)) {
          said ??= readErrorLine(line.slice(ERROR_PREFIX.length));
          if (ended) throw new RoleExited(ended.code, said);
          continue;
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
  pending: Promise<ReadableStreamReadResult<string>>,
  rest: string,
  onOther: (text: string) => void,
): void {
  if (rest) onOther(rest);
  (async () => {
    try {
      for (let chunk = await pending; !chunk.done; chunk = await reader.read()) onOther(chunk.value);
    } catch { /* closed */ }
  })();
}
