import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type AgentKey, embeddingProof, joinPath, type LinkPaths, logger, Secret } from "../base/mod.ts";
import type { AgentSettings } from "../agent/mod.ts";
import type { InBridgeStarter } from "../agent/launch/mod.ts";
import { resolveModel } from "../harness/model/mod.ts";
import {
  askMemoryService,
  type EmbeddingsProvider,
  type EmbedEndpoint,
  serveEmbedEndpoint,
} from "../memory/mod.ts";
import { MemorySession, type MemorySessionOptions } from "../memory/agent/mod.ts";
import { memoryToolServer } from "../memory/tools/mod.ts";
import type { Spec } from "../spec/mod.ts";

const log = logger("bridge");

/**
 * What an agent with memory on holds in its bridge (MEM-1, MEM-4): its session with its owner's memory
 * service, begun at each wake and ended at each sleep (PRC-14); the `memory` MCP server the tool
 * proxy serves; and, with `[memory] embeddings`, its unix embedding endpoint in
 * `~/.lnk/run/embed/`, which no sandbox sees, bound to the proof of this start's key. The proof
 * is made here, where the key is, and handed to the memory service and the endpoint; neither
 * ever holds the key.
 */
export class MemorySeat implements AsyncDisposable {
  readonly session: MemorySession;
  readonly #paths: LinkPaths;
  readonly #agent: AgentSettings;
  readonly #model: string | undefined;
  readonly #proof: Secret;
  readonly #env: MemorySessionOptions["env"];
  #endpoint: EmbedEndpoint | undefined;
  #provider: Promise<EmbeddingsProvider> | undefined;

  constructor(
    paths: LinkPaths,
    agent: AgentSettings,
    options: { spec: Spec; key: AgentKey; env?: MemorySessionOptions["env"] },
  ) {
    this.#paths = paths;
    this.#agent = agent;
    this.#model = options.spec.memory.embeddings;
    this.#env = options.env ?? Deno.env;
    this.#proof = new Secret(embeddingProof(options.key, { agentId: agent.id, owner: agent.owner }));
    this.session = new MemorySession({
      paths,
      agent,
      env: this.#env,
      embed: () =>
        this.#endpoint && this.#model
          ? { socket: this.#endpoint.socket, proof: this.#proof.reveal(), model: this.#model }
          : undefined,
    });
  }

  /** The embedding endpoint's socket. */
  get embedSocket(): string {
    return joinPath(this.#paths.run, "embed", `${this.#agent.id}.sock`);
  }

  /** Serves the embedding endpoint, when the spec names an embeddings model. */
  async serve(): Promise<void> {
    if (!this.#model) return;
    this.#endpoint = await serveEmbedEndpoint({ path: this.embedSocket, provider: () => this.#providerOf() });
    this.#endpoint.bind({ agentId: this.#agent.id, owner: this.#agent.owner, proof: this.#proof });
  }

  /** A fresh `memory` MCP server for one call of the tool proxy. */
  server(): McpServer {
    return memoryToolServer({
      agentId: this.#agent.id,
      ask: async (route, body) => {
        await this.session.ready();
        return await askMemoryService(this.#paths, this.#agent.owner, route, body);
      },
    });
  }

  /** The agent's start, with its memory session begun at each wake and ended at each sleep. */
  starter(inner: InBridgeStarter): InBridgeStarter {
    return {
      preload: () => inner.preload(),
      start: async (signal) => {
        await inner.start(signal);
        this.session.wake();
      },
      stop: async () => {
        await this.session.sleep();
        await inner.stop();
      },
      [Symbol.asyncDispose]: async () => {
        await this.session.sleep();
        await inner[Symbol.asyncDispose]();
      },
    };
  }

  /** The agent's own provider, as its harness calls it (resolved once, at the first embedding). */
  #providerOf(): Promise<EmbeddingsProvider> {
    this.#provider ??= resolveModel({
      model: this.#agent.model,
      modelUrl: this.#agent.model_url,
      env: this.#env,
    })
      .then((m) => ({ baseUrl: m.baseUrl, key: m.key }));
    this.#provider.catch((err) => {
      log.warn("Cannot resolve the agent's provider for embeddings", {
        agent: this.#agent.id,
        error: String(err),
      });
      this.#provider = undefined;
    });
    return this.#provider;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.session.sleep();
    await this.#endpoint?.close();
  }
}
