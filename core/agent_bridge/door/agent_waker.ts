import { LinkError, logger } from "../../base/mod.ts";
import type { AgentStarter } from "../../agent/launch/mod.ts";
import { socketAnswers } from "../../agent/mod.ts";

const log = logger("bridge");

/** Where the agent behind the door stands, as its bridge sees it. */
export type WakeState = "asleep" | "waking" | "awake" | "stopping";

/** What the waker needs: the agent's endpoint socket and how to start and stop the agent. */
export interface AgentWakerOptions {
  socket: string;
  starter: AgentStarter;
  /** The agent's ID, for logs. */
  agentId: string;
}

/**
 * Wakes the agent for the door and puts it to sleep for the idle watch (PRC-10). Concurrent
 * first connections share one wake; a failed wake fails every connection waiting on it, and the
 * next connection tries again; a harness that died is found refusing at the next connection and
 * started again. Every change of state is one step, so a stop and a wake never overlap.
 */
export class AgentWaker implements AsyncDisposable {
  #options: AgentWakerOptions;
  #state: WakeState = "asleep";
  #moving: Promise<void> = Promise.resolve();
  #closed = false;
  #stop = new AbortController();
  #changes = new Set<() => void>();

  constructor(options: AgentWakerOptions) {
    this.#options = options;
  }

  /** Where the agent stands now. */
  get state(): WakeState {
    return this.#state;
  }

  /** Resolves at the next change of state, or when the signal aborts. */
  changed(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#changes.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.#changes.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * The door's target for one connection: the endpoint socket once something answers there,
   * waking the agent first when it sleeps, is being put to sleep, or its harness died.
   */
  async target(_signal: AbortSignal): Promise<string> {
    for (;;) {
      if (this.#closed) {
        throw new LinkError("AGENT_NOT_RUNNING", "Cannot reach the agent: its bridge is stopping");
      }
      if (this.#state === "awake") {
        if (await socketAnswers(this.#options.socket)) return this.#options.socket;
        if (this.#state !== "awake") continue;
        log.warn("The agent's harness is not answering: starting it again", { agent: this.#options.agentId });
        this.#set("asleep");
      }
      if (this.#state === "stopping") {
        await this.#moving.catch(() => {});
        continue;
      }
      // A wake just ended says its socket answers: no need to try it again.
      await (this.#state === "waking" ? this.#moving : this.wake());
      if (this.#state === "awake") return this.#options.socket;
    }
  }

  /** Wakes the agent, or joins the wake under way; rejects with the reason it could not. */
  wake(): Promise<void> {
    if (this.#state === "awake") return Promise.resolve();
    if (this.#state === "waking") return this.#moving;
    if (this.#state === "stopping") return this.#moving.catch(() => {}).then(() => this.wake());
    if (this.#closed) {
      return Promise.reject(
        new LinkError("AGENT_NOT_RUNNING", "Cannot wake the agent: its bridge is stopping"),
      );
    }
    this.#set("waking");
    const started = performance.now();
    const agent = this.#options.agentId;
    this.#moving = this.#options.starter.start(this.#stop.signal).then(
      () => {
        log.info("Agent awake", { agent, ms: Math.round(performance.now() - started) });
        this.#set("awake");
      },
      (err) => {
        log.warn("Cannot wake the agent", { agent, error: err });
        this.#set("asleep");
        throw err;
      },
    );
    this.#moving.catch(() => {}); // a caller takes the failure; none is needed
    return this.#moving;
  }

  /** Stops the agent, holding only the door; a connection meanwhile waits, then wakes it again. */
  sleep(): Promise<void> {
    if (this.#state !== "awake") return this.#moving.catch(() => {});
    this.#set("stopping");
    const agent = this.#options.agentId;
    this.#moving = this.#options.starter.stop().then(
      () => log.info("Agent asleep", { agent }),
      (err) => log.error("Cannot stop the agent to let it sleep", { agent, error: err }),
    ).finally(() => this.#set("asleep"));
    return this.#moving;
  }

  #set(state: WakeState): void {
    this.#state = state;
    for (const notify of [...this.#changes]) notify();
  }

  /** Lets a wake or stop under way finish (so no service is left half started), then lets go. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    this.#stop.abort();
    await this.#moving.catch(() => {});
    await this.#options.starter[Symbol.asyncDispose]();
  }
}
