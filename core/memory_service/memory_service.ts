import { type Clock, Linger, LinkError, type LinkPaths, logger, Secret } from "../base/mod.ts";
// The two files of agents a service needs, not core/agent/mod.ts: its start waits on what it loads (PRC-14).
import { loadSettings } from "../agent/settings.ts";
import { loadAgentConfig } from "../agent/agent_config.ts";
import {
  bindingEmbedder,
  checkQuery,
  EMBED_PER_SEARCH,
  type Embedder,
  MemoryIndex,
  type MemoryPlace,
  memoryPlaceOf,
  type MemorySearch,
  type NoteWritten,
  searchMemory,
  writeNote,
} from "../memory/mod.ts";

const log = logger("memory");

/** How long the memory service stays after its last session (PRC-14, MEM-3). */
export const MEMORY_LINGER_MS = 5_000;

/** One agent's session: it lasts while the agent is awake, and says how to embed for it. */
interface Session {
  readonly join: number;
  readonly embedder?: Embedder;
}

/** What the memory service says of itself. */
export interface MemoryServiceState {
  readonly owner: string;
  readonly pid: number;
  readonly agents: readonly string[];
  readonly lingering: boolean;
  readonly ending: boolean;
}

/** What an agent's bridge hands at attach: the embedding endpoint and the binding's proof, when it embeds. */
export interface AttachRequest {
  readonly agent: string;
  readonly embed?: { readonly socket: string; readonly proof: string; readonly model: string };
}

/**
 * One owner's Link Memory (MEM-2): the indexes of that owner's agents with memory on, searched
 * and written for them, each agent's embeddings asked with its own binding's proof (MEM-7). It
 * ends MEMORY_LINGER_MS after its last session (PRC-14) and never waits on a model server: an
 * embedder is asked only at a search, or in the background as a session starts, and a failing
 * one makes the search one by words.
 */
export class MemoryService implements AsyncDisposable {
  readonly #paths: LinkPaths;
  readonly #owner: string;
  readonly #sessions = new Map<string, Session>();
  readonly #indexes = new Map<string, { index: MemoryIndex; place: MemoryPlace }>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #linger: Linger;
  readonly #ended = Promise.withResolvers<void>();
  #joins = 0;
  #ending = false;

  constructor(paths: LinkPaths, owner: string, options: { lingerMs: number; clock?: Clock }) {
    this.#paths = paths;
    this.#owner = owner;
    this.#linger = new Linger({ ms: options.lingerMs, clock: options.clock, onEnd: () => void this.#end() });
    this.#linger.set(0);
  }

  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  state(): MemoryServiceState {
    return {
      owner: this.#owner,
      pid: Deno.pid,
      agents: [...this.#sessions.keys()],
      lingering: this.#linger.lingering,
      ending: this.#ending,
    };
  }

  /** Starts an agent's session; the number returned lets go of this session alone. */
  async attach(request: AttachRequest): Promise<number> {
    if (this.#ending) {
      throw new LinkError("SERVICE_FAILED", "The memory service is ending", { hint: "Start again" });
    }
    await this.#agentOf(request.agent);
    const embed = request.embed;
    const embedder = embed &&
      bindingEmbedder({
        socket: embed.socket,
        agentId: request.agent,
        proof: new Secret(embed.proof),
        model: embed.model,
      });
    const join = ++this.#joins;
    this.#sessions.set(request.agent, { join, embedder });
    this.#linger.set(this.#sessions.size);
    log.info("Memory session started", { agent: request.agent, embeds: embedder !== undefined });
    void this.#warm(request.agent, embedder);
    return join;
  }

  /** Ends an agent's session (of `join` only, when given); the linger starts after the last. */
  detach(agent: string, join?: number): void {
    const current = this.#sessions.get(agent);
    if (!current || (join !== undefined && current.join !== join)) return;
    this.#sessions.delete(agent);
    this.#linger.set(this.#sessions.size);
    log.info("Memory session ended", { agent, left: this.#sessions.size });
  }

  /** Searches an agent's memory, by meaning too while its session can embed. */
  search(
    agent: string,
    query: string,
    options: { limit?: number; exclude?: string } = {},
  ): Promise<MemorySearch> {
    checkQuery(query);
    return this.#serial(agent, async () => {
      const { index } = await this.#indexOf(agent);
      const session = this.#sessions.get(agent);
      return await searchMemory(index, query, {
        ...options,
        embedder: session?.embedder,
        asleep: session
          ? undefined
          : "Searched by words alone: the agent is asleep, and only its session embeds",
      });
    });
  }

  /** Writes one of the agent's notes and indexes it at once. */
  writeNote(agent: string, note: { name: string; text: string; append?: boolean }): Promise<NoteWritten> {
    return this.#serial(agent, async () => {
      const { index, place } = await this.#indexOf(agent);
      const written = await writeNote(place.agentFolder, note);
      await index.refresh();
      return written;
    });
  }

  /**
   * Brings the agent's index up to date as its session starts, in its queue, so its first search
   * waits on little; a provider failing here is said in the log and tried again at the search.
   */
  async #warm(agent: string, embedder: Embedder | undefined): Promise<void> {
    await this.#serial(agent, async () => {
      const { index } = await this.#indexOf(agent);
      await index.refresh();
      if (embedder) await index.embedPending(embedder, { max: EMBED_PER_SEARCH });
    }).catch((err) => {
      log.warn("Memory could not bring the agent's index up to date yet", {
        agent,
        error: err instanceof Error ? err.message : String(err),
      });
    });
  }

  /** An agent of this owner with memory on, else refused. */
  async #agentOf(id: string) {
    const settings = await loadSettings(this.#paths, id);
    if (settings.owner !== this.#owner) {
      throw new LinkError("REFUSED", `Agent "${settings.name}" is not of owner ${this.#owner}`, {
        hint: "A memory service serves one owner's agents only (MEM-2)",
      });
    }
    const { spec } = await loadAgentConfig(this.#paths, settings);
    if (!spec.memory.on) {
      throw new LinkError("REFUSED", `Cannot use the memory of agent "${settings.name}": its memory is off`, {
        hint: `Run \`lnk agent memory on --agent ${settings.name}\`, then start the agent again`,
      });
    }
    return settings;
  }

  async #indexOf(agent: string): Promise<{ index: MemoryIndex; place: MemoryPlace }> {
    const known = this.#indexes.get(agent);
    if (known) return known;
    const settings = await this.#agentOf(agent);
    const place = memoryPlaceOf(this.#paths, settings);
    const opened = {
      index: await MemoryIndex.open(place.index, {
        agentFolder: place.agentFolder,
        cache: place.cache,
        storeDatabase: place.storeDatabase,
      }),
      place,
    };
    this.#indexes.set(agent, opened);
    return opened;
  }

  #serial<T>(agent: string, work: () => Promise<T>): Promise<T> {
    const next = (this.#queues.get(agent) ?? Promise.resolve()).then(work);
    this.#queues.set(agent, next.catch(() => {}));
    return next;
  }

  async #end(): Promise<void> {
    this.#ending = true;
    log.info("Memory service ended after its linger", { owner: this.#owner });
    await this[Symbol.asyncDispose]();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#ending = true;
    this.#linger[Symbol.dispose]();
    await Promise.all([...this.#queues.values()]);
    for (const { index } of this.#indexes.values()) index[Symbol.dispose]();
    this.#indexes.clear();
    this.#ended.resolve();
  }
}
