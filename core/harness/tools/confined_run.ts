import type { ConfinedSpawner } from "../../../sandbox/mod.ts";
import type { RunCommand } from "./harness_tool.ts";
import { runProcess } from "./run_process.ts";

/**
 * The runner of `run` where the harness writes folders its tools never do (LAY-7): each program
 * starts through a ConfinedSpawner keeping it from writing `keep` (Agent/: chats/ and the notes in
 * memory/), with Landlock, while it writes what the sandbox lets it write elsewhere. The spawner's
 * thread is started at the first run, so a start that runs nothing pays nothing. Where Landlock
 * is not on, every run fails with SANDBOX_UNAVAILABLE and the reason: no program runs unconfined.
 */
export class ConfinedRun implements AsyncDisposable {
  readonly #keep: readonly string[];
  readonly #env: Record<string, string> | undefined;
  readonly #hide: readonly string[];
  #spawner: Promise<ConfinedSpawner> | undefined;

  /** `hide`: folders its programs can neither read nor write (PRC-4: the other agents' in a shared harness). */
  constructor(
    keep: readonly string[],
    options: { env?: Record<string, string>; hide?: readonly string[] } = {},
  ) {
    this.#keep = keep;
    this.#env = options.env;
    this.#hide = options.hide ?? [];
  }

  /** Runs one command as runProcess does, confined. */
  readonly run: RunCommand = (argv, options) =>
    runProcess(argv, {
      ...options,
      env: this.#env,
      spawn: async (program, spawnOptions) => (await this.#started()).spawn(program, spawnOptions),
    });

  #started(): Promise<ConfinedSpawner> {
    // A failed start is not kept: the next run tries again and says why. sandbox/ loads only then,
    // not with the harness, whose start a wake waits on (PRC-13).
    this.#spawner ??= import("../../../sandbox/mod.ts").then((m) =>
      m.ConfinedSpawner.start(this.#keep, { hide: this.#hide })
    )
      .catch((err) => {
        this.#spawner = undefined;
        throw err;
      });
    return this.#spawner;
  }

  /** Ends the programs still running and the spawner's thread. */
  async [Symbol.asyncDispose](): Promise<void> {
    const spawner = await this.#spawner?.catch(() => undefined);
    this.#spawner = undefined;
    await spawner?.[Symbol.asyncDispose]();
  }
}
