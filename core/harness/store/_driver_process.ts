import { LinkError, logger, TextLineReader } from "../../base/mod.ts";

const log = logger("store-driver");

/** How to start a store driver program. */
export interface DriverCommand {
  command: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** One running store driver program: lines to its stdin, lines from its stdout, its stderr kept. */
export class DriverProcess {
  readonly pid: number;
  readonly exited: Promise<Deno.CommandStatus>;
  #child: Deno.ChildProcess;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #stdout: TextLineReader;
  #stderrDone: Promise<void>;
  #lastWords: string[] = [];
  #running = true;

  constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.pid = child.pid;
    this.exited = child.status.finally(() => (this.#running = false));
    this.#stdin = child.stdin.getWriter();
    this.#stdout = new TextLineReader(child.stdout);
    this.#stderrDone = this.#collect(new TextLineReader(child.stderr));
  }

  /** Starts the program; throws SERVICE_FAILED when it cannot be run. */
  static start(driver: DriverCommand): DriverProcess {
    const [exe, ...args] = driver.command;
    if (exe === undefined) {
      throw new LinkError("CONFIG_INVALID", "Cannot start a store driver: its command is empty");
    }
    try {
      const child = new Deno.Command(exe, {
        args,
        env: driver.env,
        cwd: driver.cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      return new DriverProcess(child);
    } catch (err) {
      throw new LinkError("SERVICE_FAILED", `Cannot start store driver "${exe}": ${(err as Error).message}`, {
        hint: "Check the driver's command in the agent's spec, and that the program is installed",
        cause: err,
      });
    }
  }

  get running(): boolean {
    return this.#running;
  }

  /** Writes one line; false when the driver no longer reads. */
  async send(line: string): Promise<boolean> {
    try {
      await this.#stdin.write(new TextEncoder().encode(`${line}\n`));
      return true;
    } catch {
      return false;
    }
  }

  /** Closes its stdin: a one-shot driver has its call, a serve driver is done. */
  async closeInput(): Promise<void> {
    await this.#stdin.close().catch(() => {});
  }

  /** The next line it answered, or undefined when its stdout ended. */
  nextLine(): Promise<string | undefined> {
    return this.#stdout.next();
  }

  /** Its last lines on stderr, for an error's hint. */
  lastWords(): string {
    return this.#lastWords.join("\n") || "(none)";
  }

  /** Kills it unless it exited, and waits until it is reaped and its pipes are closed. */
  async stop(): Promise<Deno.CommandStatus> {
    if (this.#running) {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* exited meanwhile */ }
    }
    const status = await this.exited;
    await this.#stdin.abort().catch(() => {});
    await this.#stdout.cancel();
    await this.#stderrDone;
    return status;
  }

  async #collect(lines: TextLineReader): Promise<void> {
    for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
      this.#lastWords = [...this.#lastWords.slice(-7), line];
      log.debug("Store driver wrote", { pid: this.pid, line });
    }
  }
}
