import { LinkError } from "../core/base/mod.ts";
import { confineWorkerMain } from "./_confine_worker.ts";

/** What a program started by a ConfinedSpawner is given. */
export interface ConfinedSpawnOptions {
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Variables added to the process's own, as Deno.Command takes them. */
  readonly env?: Readonly<Record<string, string>>;
  /** "inherit": the program gets this process's own stdin, stdout and stderr (its streams here stay empty). */
  readonly stdin: "piped" | "null" | "inherit";
}

/** A started program: the part of Deno.ChildProcess that a runner uses. */
export interface SpawnedChild {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<Deno.CommandStatus>;
  kill(signal?: Deno.Signal): void;
}

interface Child {
  started: PromiseWithResolvers<number>;
  /** Its exit and the ends of its two outputs: forgotten once all three came. */
  left: number;
  out: Record<"stdout" | "stderr", ReadableStreamDefaultController<Uint8Array> | undefined>;
  status: PromiseWithResolvers<Deno.CommandStatus>;
}

type Out =
  | { type: "ready"; abi: number; granted: string[] }
  | { type: "failed"; message: string }
  | { type: "spawned"; id: number; pid: number }
  | { type: "spawn-failed"; id: number; name: string; message: string }
  | { type: "out"; id: number; name: "stdout" | "stderr"; chunk: Uint8Array }
  | { type: "end"; id: number; name: "stdout" | "stderr" }
  | { type: "exit"; id: number; code: number; signal: Deno.Signal | null };

/** What a failed start could not do, naming the folders. */
function whatFailed(keep: readonly string[], hide: readonly string[]): string {
  const list = (folders: readonly string[]) => folders.map((f) => `"${f}"`).join(", ");
  if (hide.length === 0) return `Cannot keep programs from writing ${list(keep)}`;
  if (keep.length === 0) return `Cannot hide ${list(hide)} from programs`;
  return `Cannot keep programs from writing ${list(keep)} and hide ${list(hide)} from them`;
}

/**
 * Starts programs that cannot write into some folders the rest of this process writes (LAY-7:
 * Link Harness writes Agent/chats, run's commands never do), with Landlock: from a thread of
 * their own whose Landlock domain allows writing beneath every writable mount but the kept folders,
 * passed on to every program started from it. Given folders to hide, its programs cannot read,
 * list, run or write anything in them either, while this process still does. Linux 5.13 or later
 * with Landlock turned on; where it is not, start() fails with SANDBOX_UNAVAILABLE, never
 * starting a program unconfined.
 */
export class ConfinedSpawner implements AsyncDisposable {
  #worker: Worker;
  #children = new Map<number, Child>();
  #next = 1;
  /** The Landlock ABI of this kernel, and the places programs may write. */
  readonly abi: number;
  readonly granted: readonly string[];

  /** Made by start(), once the thread is in its domain. */
  constructor(worker: Worker, ready: { abi: number; granted: string[] }) {
    this.#worker = worker;
    this.abi = ready.abi;
    this.granted = ready.granted;
    worker.onmessage = (event: MessageEvent<Out>) => this.#receive(event.data);
  }

  /**
   * Starts the confining thread, keeping programs from writing in `keep` and, when given, from
   * reading, listing, running or writing anything in `hide` (PRC-4: one agent's commands in a
   * harness shared by several never see the others' folders). Real paths, all of them.
   */
  static async start(
    keep: readonly string[],
    options: { hide?: readonly string[] } = {},
  ): Promise<ConfinedSpawner> {
    return await ConfinedSpawner.#start(keep, options.hide ?? [], false);
  }

  /**
   * Starts a thread whose domain changes nothing a program may reach but device nodes, which it
   * refuses: its programs cannot ptrace, signal or reach the abstract sockets of any process
   * outside it (Landlock's ptrace rule and its scopes, ABI 6), so a sandboxed program never
   * stops or reads the sandbox's pid 1 or the launcher that started it (`lnk sandbox relay`).
   */
  static async scoped(): Promise<ConfinedSpawner> {
    return await ConfinedSpawner.#start([], [], true);
  }

  static async #start(keep: readonly string[], hide: readonly string[], scopeOnly: boolean) {
    const source = `(${confineWorkerMain.toString()})();`;
    const worker = new Worker(`data:text/javascript,${encodeURIComponent(source)}`, { type: "module" });
    const ready = Promise.withResolvers<{ abi: number; granted: string[] }>();
    worker.onmessage = (event: MessageEvent<Out>) => {
      const msg = event.data;
      if (msg.type === "ready") ready.resolve(msg);
      else if (msg.type === "failed") ready.reject(new Error(msg.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      ready.reject(new Error(event.message));
    };
    worker.postMessage({ type: "init", keep, hide, scopeOnly });
    try {
      return new ConfinedSpawner(worker, await ready.promise);
    } catch (err) {
      worker.terminate();
      throw new LinkError(
        "SANDBOX_UNAVAILABLE",
        `${scopeOnly ? "Cannot keep programs from other processes" : whatFailed(keep, hide)}: ${
          err instanceof Error ? err.message : err
        }`,
        {
          hint: "Run Linux 5.13 or later with Landlock on (`landlock` in the kernel's lsm= list)" +
            (hide.length > 0 ? ", and name each folder to hide by its real path" : ""),
          cause: err,
        },
      );
    }
  }

  /** Starts a program in the domain; a program that is not there fails as Deno.Command does. */
  async spawn(program: string, options: ConfinedSpawnOptions): Promise<SpawnedChild> {
    const id = this.#next++;
    const inherit = options.stdin === "inherit";
    const child: Child = {
      started: Promise.withResolvers(),
      left: inherit ? 1 : 3,
      out: { stdout: undefined, stderr: undefined },
      status: Promise.withResolvers(),
    };
    this.#children.set(id, child);
    const stream = (name: "stdout" | "stderr") =>
      new ReadableStream<Uint8Array>({
        start: (controller) => void (child.out[name] = controller),
        cancel: () => this.#worker.postMessage({ type: "cancel", id, name }),
      });
    const stdout = stream("stdout");
    const stderr = stream("stderr");
    if (inherit) {
      child.out.stdout?.close();
      child.out.stderr?.close();
    }
    this.#worker.postMessage({
      type: "spawn",
      id,
      program,
      ...options,
      stdin: options.stdin === "piped",
      inherit,
    });
    const pid = await child.started.promise;
    const stdin = new WritableStream<Uint8Array>({
      write: (chunk) => this.#worker.postMessage({ type: "stdin", id, chunk }),
      close: () => this.#worker.postMessage({ type: "stdin-close", id }),
    });
    return {
      pid,
      stdin,
      stdout,
      stderr,
      status: child.status.promise,
      kill: (signal: Deno.Signal = "SIGTERM") => this.#worker.postMessage({ type: "kill", id, signal }),
    };
  }

  #receive(msg: Out): void {
    if (!("id" in msg)) return;
    const child = this.#children.get(msg.id);
    if (!child) return;
    switch (msg.type) {
      case "spawned":
        return child.started.resolve(msg.pid);
      case "spawn-failed": {
        this.#children.delete(msg.id);
        const known = (Deno.errors as unknown as Record<string, new (m: string) => Error>)[msg.name];
        return child.started.reject(known ? new known(msg.message) : new Error(msg.message));
      }
      case "out":
        try {
          child.out[msg.name]?.enqueue(msg.chunk);
        } catch { /* cancelled */ }
        return;
      case "end":
        try {
          child.out[msg.name]?.close();
        } catch { /* cancelled */ }
        return this.#settled(msg.id, child);
      case "exit":
        child.status.resolve({ success: msg.code === 0, code: msg.code, signal: msg.signal });
        return this.#settled(msg.id, child);
    }
  }

  #settled(id: number, child: Child): void {
    if (--child.left === 0) this.#children.delete(id);
  }

  /** Kills every program still running, waits for each to end, and stops the thread. */
  async [Symbol.asyncDispose](): Promise<void> {
    const running = [...this.#children.entries()];
    for (const [id] of running) this.#worker.postMessage({ type: "kill", id, signal: "SIGKILL" });
    // One still being started is killed once started (the thread takes messages in order).
    await Promise.all(running.map(([, c]) => c.started.promise.then(() => c.status.promise, () => {})));
    this.#worker.terminate();
  }
}
