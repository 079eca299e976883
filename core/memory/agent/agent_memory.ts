import { LinkError } from "../../base/mod.ts";
import { type AgentContext, type AgentSettings, loadAgentConfig } from "../../agent/mod.ts";
import type { Spec } from "../../spec/mod.ts";
import { MemoryIndex } from "../memory_index.ts";
import type { MemorySearch } from "../memory_hit.ts";
import { memoryPlaceOf } from "../memory_place.ts";
import { checkQuery, searchMemory } from "../search_memory.ts";
import { askMemoryService } from "../memory_client.ts";

/** What `lnk agent memory status` says. */
export interface MemoryStatus {
  readonly agent: string;
  readonly on: boolean;
  /** The embeddings model, or null: search by words alone. */
  readonly embeddings: string | null;
  readonly index: {
    readonly path: string;
    readonly chunks: number;
    readonly embedded: number;
    /** Why it searches by words alone whatever the embeddings, when sqlite-vec does not load here. */
    readonly meaningOff?: string;
  } | null;
  /** Whether the owner's memory service runs, and serves this agent now. */
  readonly service: { readonly running: boolean; readonly serving: boolean };
}

/** The agent's `[memory]`, refusing when it is off (MEM-1). */
export async function memorySpecOn(ctx: AgentContext, agent: AgentSettings): Promise<Spec["memory"]> {
  const { spec } = await loadAgentConfig(ctx.paths, agent);
  if (!spec.memory.on) {
    throw new LinkError("REFUSED", `Cannot use the memory of agent "${agent.name}": its memory is off`, {
      hint: `Run \`lnk agent memory on --agent ${agent.name}\`, then start the agent again`,
    });
  }
  return spec.memory;
}

/** Where the agent's memory stands. */
export async function memoryStatus(ctx: AgentContext, agent: AgentSettings): Promise<MemoryStatus> {
  const { spec } = await loadAgentConfig(ctx.paths, agent);
  const place = memoryPlaceOf(ctx.paths, agent);
  const state = await askMemoryService(ctx.paths, agent.owner, "/state").catch(() => undefined) as
    | { agents?: string[] }
    | undefined;
  let index: MemoryStatus["index"] = null;
  if (spec.memory.on) {
    using opened = await MemoryIndex.open(place.index, {
      agentFolder: place.agentFolder,
      cache: place.cache,
    });
    await opened.refresh();
    index = {
      path: place.index,
      ...opened.counts(spec.memory.embeddings),
      ...(opened.vec.loaded ? {} : { meaningOff: opened.vec.why }),
    };
  }
  return {
    agent: agent.name,
    on: spec.memory.on,
    embeddings: spec.memory.embeddings ?? null,
    index,
    service: { running: state !== undefined, serving: state?.agents?.includes(agent.id) ?? false },
  };
}

/**
 * Searches the agent's memory for its owner: through the owner's memory service while it serves
 * the agent (so by meaning too, with the agent's embeddings), else from the index here by words.
 */
export async function searchAgentMemory(
  ctx: AgentContext,
  agent: AgentSettings,
  query: string,
  options: { limit?: number } = {},
): Promise<MemorySearch> {
  await memorySpecOn(ctx, agent);
  checkQuery(query);
  const served = await askMemoryService(ctx.paths, agent.owner, "/search", {
    agent: agent.id,
    query,
    limit: options.limit,
  }).catch(() => undefined);
  if (served !== undefined) return served as MemorySearch;
  const place = memoryPlaceOf(ctx.paths, agent);
  using index = await MemoryIndex.open(place.index, {
    agentFolder: place.agentFolder,
    cache: place.cache,
    storeDatabase: place.storeDatabase,
  });
  return await searchMemory(index, query, {
    limit: options.limit,
    asleep: "Searched by words alone: the agent is asleep, and only its memory service embeds for it",
  });
}
