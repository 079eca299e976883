import type { ConfinedSpawnOptions, SpawnedChild } from "../../../sandbox/mod.ts";
import { CappedOutput } from "./capped_output.ts";
import type { CommandOutput, RunCommandOptions } from "./harness_tool.ts";

/** Starts a program: Deno.Command unless told, such as a ConfinedSpawner's spawn. */
export type SpawnProgram = (program: string, options: ConfinedSpawnOptions) => Promise<SpawnedChild>;

/** How long output may still come once the program ended, from programs it left running. */
const DRAIN_MS = 1000;

/**
 * The default runner of `run`: starts the program with Deno.Command in the given folder, feeds
 * it stdin, keeps the head and tail of its output, and kills it at the timeout or when the turn
 * is cancelled. It adds no confinement of its own: inside the agent's sandbox, the program runs
 * in the harness's own sandbox, with the harness's grants, and `spawn` (a ConfinedSpawner's, see
 * ConfinedRun) keeps it out of the folders the harness alone writes (LAY-7).
 */
export async function runProcess(
  argv: readonly string[],
  options: RunCommandOptions & { env?: Record<string, string>; spawn?: SpawnProgram },
): Promise<CommandOutput> {
  const spawn = options.spawn ?? spawnDirect;
  const child = await spawn(options.program, {
    args: argv.slice(1),
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
  });
  const stdout = new CappedOutput(options.outputCap);
  const stderr = new CappedOutput(options.outputCap);
  const readers = [drain(child.stdout, stdout), drain(child.stderr, stderr)];
  const stop = new AbortController();
  let timedOut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // It has already ended.
    }
  };
  options.clock.sleep(options.timeoutMs, stop.signal).then(() => {
    timedOut = true;
    kill();
  }, () => {});
  options.signal.addEventListener("abort", kill, { once: true });
  if (options.signal.aborted) kill();
  try {
    if (options.stdin !== undefined) void feed(child.stdin, options.stdin);
    const status = await child.status;
    const drained = options.clock.sleep(DRAIN_MS, stop.signal).catch(() => {});
    await Promise.race([Promise.all(readers.map((r) => r.done)), drained]);
    return {
      code: status.signal === null ? status.code : null,
      signal: status.signal,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut,
    };
  } finally {
    stop.abort();
    options.signal.removeEventListener("abort", kill);
    for (const r of readers) await r.cancel();
  }
}

function spawnDirect(program: string, options: ConfinedSpawnOptions): Promise<SpawnedChild> {
  const { args, cwd, env, stdin } = options;
  return Promise.resolve(
    new Deno.Command(program, { args: [...args], cwd, env, stdin, stdout: "piped", stderr: "piped" }).spawn(),
  );
}

function drain(
  stream: ReadableStream<Uint8Array>,
  into: CappedOutput,
): { done: Promise<void>; cancel(): Promise<void> } {
  const reader = stream.getReader();
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      into.push(value);
    }
  })().catch(() => {});
  return {
    done,
    async cancel() {
      await reader.cancel().catch(() => {});
      await done;
    },
  };
}

async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The program closed its stdin early; what it read is what it got.
  }
}
