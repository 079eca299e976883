import { errorFromAnswer, LinkError, type LinkPaths, logger } from "../../base/mod.ts";
import { memoryServiceSocketPath } from "../memory_client.ts";
import { ensureMemoryService } from "./memory_service_start.ts";

const log = logger("memory");

/** How a session embeds: the agent's unix embedding endpoint, its binding's proof, the model. */
export interface SessionEmbed {
  readonly socket: string;
  readonly proof: string;
  readonly model: string;
}

/** What a memory session is for. */
export interface MemorySessionOptions {
  readonly paths: LinkPaths;
  readonly agent: { readonly id: string; readonly owner: string };
  readonly env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  /** How the session embeds, asked at each attach (a new key makes a new proof); none: by words alone. */
  readonly embed?: () => SessionEmbed | undefined;
}

/**
 * An awake agent's session with its owner's memory service (PRC-14): begun as the agent wakes,
 * in the background so a wake never waits on memory, the service started first when none runs;
 * held by one open answer, so the service sees it end when the agent sleeps or its bridge dies.
 * A call waits for it (`ready()`), and a session the service dropped (it ended, or died) is
 * begun again at the next call.
 */
export class MemorySession implements AsyncDisposable {
  readonly #options: MemorySessionOptions;
  #awake = false;
  #attached: Promise<AbortController> | undefined;

  constructor(options: MemorySessionOptions) {
    this.#options = options;
  }

  /** The agent woke: its session begins, without waiting. */
  wake(): void {
    this.#awake = true;
    this.ready().catch((err) => {
      log.warn("Memory session not begun: memory's tools say so when called", {
        agent: this.#options.agent.id,
        error: err instanceof Error ? err.message : String(err),
      });
    });
  }

  /** Resolves once the agent's session is held (begun now when it is not). */
  async ready(): Promise<void> {
    if (!this.#awake) {
      throw new LinkError("AGENT_NOT_RUNNING", "Cannot use memory: the agent is asleep", {
        hint: "Send it a message; it wakes with its memory",
      });
    }
    if (!this.#attached) {
      const attaching = this.#attach();
      this.#attached = attaching;
      // A failed attach is tried again at the next call; a newer one is never let go for it.
      attaching.catch(() => {
        if (this.#attached === attaching) this.#attached = undefined;
      });
    }
    await this.#attached;
  }

  /** The agent sleeps or stops: its session ends. */
  async sleep(): Promise<void> {
    this.#awake = false;
    const attached = this.#attached;
    this.#attached = undefined;
    (await attached?.catch(() => undefined))?.abort();
  }

  /** Begins the session; a service found ending (its linger ran out meanwhile) is started again. */
  async #attach(): Promise<AbortController> {
    for (let attempt = 1;; attempt++) {
      try {
        return await this.#attachOnce();
      } catch (err) {
        const ending = err instanceof LinkError && err.code === "SERVICE_FAILED";
        if (!ending || attempt >= 3) throw err;
      }
    }
  }

  async #attachOnce(): Promise<AbortController> {
    const { paths, agent, env } = this.#options;
    await ensureMemoryService(paths, agent.owner, env);
    const abort = new AbortController();
    const client = Deno.createHttpClient({
      proxy: { transport: "unix", path: memoryServiceSocketPath(paths, agent.owner) },
    });
    try {
      const res = await fetch("http://memory/attach", {
        client,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ agent: agent.id, embed: this.#options.embed?.() }),
        signal: abort.signal,
      }).catch((err) => {
        throw new LinkError("SERVICE_FAILED", "The memory service ended before the session began", {
          cause: err,
        });
      });
      if (!res.ok) throw errorFromAnswer(res.status, await res.text());
      const reader = res.body!.getReader();
      const first = await reader.read().catch(() => ({ done: true as const }));
      if (first.done) throw new LinkError("SERVICE_FAILED", "The memory service ended the session at once");
      // Held until the agent sleeps; when the service ends it first, the next call begins another.
      void (async () => {
        try {
          while (!(await reader.read()).done) { /* nothing more is said */ }
        } catch { /* let go */ }
        client.close();
        if (this.#attached && (await this.#attached.catch(() => undefined)) === abort) {
          this.#attached = undefined;
        }
      })();
      return abort;
    } catch (err) {
      client.close();
      throw err;
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.sleep();
  }
}
