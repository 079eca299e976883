import * as acp from "@agentclientprotocol/sdk";
import { LinkError, logger, TextLineReader } from "../../base/mod.ts";
import { ConfinedSpawner, type SpawnedChild } from "../../../sandbox/mod.ts";

const log = logger("hub");

/** A stdio ACP agent's command as the hub runs it: its words, its variables and where it works. */
export interface AcpCommand {
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

/** What the hub tells a child each update of a prompt, by the child's session ID. */
export type UpdateListener = (update: Record<string, unknown>) => void;

/** How long the hub waits for the rest of a program's stderr once it has exited. */
const STDERR_GRACE_MS = 200;

/** How long a child may take to start (initialize), and for a first session. */
export const START_TIMEOUT_MS = 120_000;

/**
 * One run of a stdio ACP agent under the hub, spoken to with
 * the official ACP SDK as its client. Started from a Landlock domain of its own (ConfinedSpawner),
 * so it can ptrace or read the memory of nothing outside it: never the hub, which holds the
 * agent's key. Each way it can fail ends it and settles `failed` with a LinkError saying what it did:
 * it exited (with its stderr's last line), it printed something other than ACP, or it did not
 * start in time. Its stderr goes to the agent's log.
 */
export class AcpChild implements AsyncDisposable {
  readonly failed: Promise<LinkError>;
  #child: SpawnedChild;
  #spawner: ConfinedSpawner;
  #conn: acp.ClientConnection;
  #listeners = new Map<string, UpdateListener>();
  #fail: (err: LinkError) => void;
  #failure: LinkError | undefined;
  #lastStderr = "";
  #stopping = false;
  loadSession = false;
  readonly name: string;

  private constructor(spawner: ConfinedSpawner, child: SpawnedChild, name: string) {
    this.#spawner = spawner;
    this.#child = child;
    this.name = name;
    const failed = Promise.withResolvers<LinkError>();
    this.failed = failed.promise;
    this.#fail = (err) => {
      if (this.#failure) return;
      this.#failure = err;
      failed.resolve(err);
      if (!this.#stopping) log.error(err.message, { code: err.code, program: name });
      this.#kill();
    };
    const stderrRead = this.#readStderr();
    const app = acp.client({ name: "link-hub" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.#listeners.get(params.sessionId)?.(params.update as unknown as Record<string, unknown>);
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        // The sandbox is the boundary: what the agent may reach is what its grants say.
        const options = params.options;
        const pick = options.find((o) => o.kind === "allow_once") ??
          options.find((o) => o.kind === "allow_always");
        return pick
          ? { outcome: { outcome: "selected", optionId: pick.optionId } }
          : { outcome: { outcome: "cancelled" } };
      });
    this.#conn = app.connect(acp.ndJsonStream(child.stdin, this.#checked(child.stdout)));
    void child.status.then(async (status) => {
      // Its last words, read to the end of its stderr (not waiting on a child of its that holds it).
      let grace: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        stderrRead,
        new Promise((resolve) => grace = setTimeout(resolve, STDERR_GRACE_MS)),
      ]);
      clearTimeout(grace);
      const how = status.signal ? `was killed (${status.signal})` : `exited (code ${status.code})`;
      const said = this.#lastStderr ? `: ${this.#lastStderr}` : "";
      this.#fail(
        new LinkError("SERVICE_FAILED", `The harness's ACP program "${name}" ${how}${said}`, {
          hint: "Run `lnk agent logs` to see what it said; the hub starts it again at the next message",
        }),
      );
    });
  }

  /** Starts the command and initializes it; a child that fails or takes too long is ended. */
  static async start(command: AcpCommand, options: { startTimeoutMs?: number } = {}): Promise<AcpChild> {
    const [program, ...args] = command.command;
    if (!program) throw new LinkError("INVALID", "The harness's ACP command is empty");
    const spawner = await ConfinedSpawner.scoped();
    let spawned: SpawnedChild;
    try {
      spawned = await spawner.spawn(program, {
        args,
        env: { ...command.env },
        cwd: command.cwd,
        stdin: "piped",
      });
    } catch (err) {
      await spawner[Symbol.asyncDispose]();
      throw new LinkError(
        "HARNESS_MISSING",
        `Cannot start the harness's ACP program "${program}" in the sandbox`,
        {
          hint: "Check the agent's --acp-command names a program that is there: `lnk agent harness kit`",
          cause: err,
        },
      );
    }
    const child = new AcpChild(spawner, spawned, program);
    try {
      const init = await child.#within(
        child.#conn.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        }),
        options.startTimeoutMs ?? START_TIMEOUT_MS,
        "start",
      );
      child.loadSession = init.agentCapabilities?.loadSession === true;
      await child.#authenticate(
        init.authMethods ?? [],
        command.env,
        options.startTimeoutMs ?? START_TIMEOUT_MS,
      );
      return child;
    } catch (err) {
      await child[Symbol.asyncDispose]();
      throw err;
    }
  }

  /**
   * Signs in with the variables it was handed, when it says it can (an auth method of type
   * "env_var" whose variables are all set, such as OPENAI_API_KEY): the model's, which
   * hold no real key when the proxy adds it. Nothing else is tried: a login in a browser has no
   * place in a sandbox. One that fails is said in the log; its first session then says why.
   */
  async #authenticate(
    methods: readonly unknown[],
    env: Readonly<Record<string, string>>,
    ms: number,
  ): Promise<void> {
    const usable = methods.filter((m): m is { id: string; vars: { name: string }[] } => {
      const method = m as { type?: string; id?: unknown; vars?: { name?: unknown }[] };
      return method.type === "env_var" && typeof method.id === "string" && Array.isArray(method.vars) &&
        method.vars.length > 0 && method.vars.every((v) =>
          typeof v.name === "string" && env[v.name] !== undefined
        );
    });
    const pick = usable.find((m) => m.vars.some((v) => v.name === "OPENAI_API_KEY")) ?? usable[0];
    if (!pick) return;
    try {
      await this.#within(
        this.#conn.agent.request(acp.methods.agent.authenticate, { methodId: pick.id }),
        ms,
        "sign in",
      );
    } catch (err) {
      if (this.#failure) throw err;
      log.warn("The harness's ACP program did not take its sign-in", {
        program: this.name,
        method: pick.id,
        error: err,
      });
    }
  }

  /** A new ACP session working in `cwd`: its ID. */
  async newSession(cwd: string, timeoutMs = START_TIMEOUT_MS): Promise<string> {
    const made = await this.#within(
      this.#conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
      timeoutMs,
      "open a session",
    );
    return made.sessionId;
  }

  /** Loads a session an earlier run kept (its replayed updates go nowhere); false when it cannot. */
  async loadOld(sessionId: string, cwd: string, timeoutMs = START_TIMEOUT_MS): Promise<boolean> {
    if (!this.loadSession) return false;
    try {
      await this.#within(
        this.#conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] }),
        timeoutMs,
        "load a session",
      );
      return true;
    } catch (err) {
      if (this.#failure) throw err;
      log.warn("The harness could not load a kept session: a new one is opened", { error: err });
      return false;
    }
  }

  /**
   * One prompt on a session: each update to `onUpdate`, resolving with its stop reason. Rejects
   * when the child fails meanwhile, or (a hang) says nothing for `quietMs`, which ends it.
   */
  async prompt(
    sessionId: string,
    text: string,
    options: { onUpdate: UpdateListener; quietMs: number },
  ): Promise<string> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const quiet = Promise.withResolvers<never>();
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const err = new LinkError(
          "TIMEOUT",
          `The harness's ACP program "${this.name}" said nothing for ${options.quietMs / 1000} s`,
          { hint: "Run `lnk agent logs` to see what it said; the hub starts it again at the next message" },
        );
        this.#fail(err);
        quiet.reject(err);
      }, options.quietMs);
    };
    this.#listeners.set(sessionId, (update) => {
      arm();
      options.onUpdate(update);
    });
    arm();
    try {
      const answer = await Promise.race([
        this.#conn.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        }),
        quiet.promise,
        this.failed.then((err) => Promise.reject(err)),
      ]);
      return answer.stopReason;
    } catch (err) {
      throw await this.#why(err);
    } finally {
      clearTimeout(timer);
      this.#listeners.delete(sessionId);
    }
  }

  /** Asks the child to cancel a session's turn (a notification: nothing comes back). */
  cancel(sessionId: string): void {
    void this.#conn.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => {});
  }

  get alive(): boolean {
    return this.#failure === undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#stopping = true;
    this.#fail(new LinkError("SERVICE_FAILED", "The hub stopped the harness's ACP program"));
    await this.#child.status.catch(() => {});
    this.#conn.close();
    await this.#spawner[Symbol.asyncDispose]();
  }

  async #within<T>(request: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new LinkError(
          "TIMEOUT",
          `The harness's ACP program "${this.name}" did not ${what} within ${ms / 1000} s`,
          { hint: "Run `lnk agent logs` to see what it said" },
        );
        this.#fail(err);
        reject(err);
      }, ms);
    });
    try {
      return await Promise.race([request, late, this.failed.then((err) => Promise.reject(err))]);
    } catch (err) {
      throw await this.#why(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Why a request failed: the child's failure when it failed, and when the ACP connection closed
   * under it (its stdout ended), the child's end, which is waited for (it is killed, as a program
   * that closed its stdout speaks no more ACP), so the error says how it exited.
   */
  async #why(err: unknown): Promise<LinkError> {
    if (!this.#failure && this.#conn.signal.aborted) {
      this.#kill();
      return await this.failed;
    }
    return this.#failure ?? asLinkError(err, this.name);
  }

  /** The child's stdout, each line checked to be JSON: anything else is garbage, which ends it. */
  #checked(stdout: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let rest = "";
    const decoder = new TextDecoder();
    return stdout.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          rest += decoder.decode(chunk, { stream: true });
          let at: number;
          while ((at = rest.indexOf("\n")) >= 0) {
            const line = rest.slice(0, at);
            rest = rest.slice(at + 1);
            if (!line.trim()) continue;
            try {
              JSON.parse(line);
            } catch {
              this.#fail(
                new LinkError(
                  "SERVICE_FAILED",
                  `The harness's ACP program "${this.name}" printed something other than ACP: "${
                    line.slice(0, 60)
                  }"`,
                  { hint: "It must speak ACP alone on its stdout; its logs go to stderr" },
                ),
              );
              return;
            }
            controller.enqueue(encoder.encode(`${line}\n`));
          }
        },
      }),
    );
  }

  async #readStderr(): Promise<void> {
    const reader = new TextLineReader(this.#child.stderr);
    try {
      for (let line = await reader.next(); line !== undefined; line = await reader.next()) {
        if (!line.trim()) continue;
        this.#lastStderr = line.trim().slice(0, 300);
        log.info(this.#lastStderr, { program: this.name, stream: "stderr" });
      }
    } catch { /* it ended */ }
  }

  #kill(): void {
    try {
      this.#child.kill("SIGKILL");
    } catch { /* exited */ }
  }
}

/** An error the ACP agent answered with, said as the harness's. */
function asLinkError(err: unknown, name: string): LinkError {
  if (err instanceof LinkError) return err;
  const message = err instanceof Error
    ? err.message
    : typeof err === "object" && err && "message" in err
    ? String((err as { message: unknown }).message)
    : String(err);
  return new LinkError(
    "SERVICE_FAILED",
    `The harness's ACP program "${name}" answered with an error: ${message}`,
    {
      hint: "Run `lnk agent logs` to see what it said",
    },
  );
}
