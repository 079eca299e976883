import { joinPath, type LinkPaths } from "../base/mod.ts";

/** Where one agent's memory is: the files it is made from, and its index. */
export interface MemoryPlace {
  readonly agentId: string;
  /** The agent's `Agent/` folder, whose `memory/` and `chats/` are indexed. */
  readonly agentFolder: string;
  /** `~/.lnk/agents/<id>/memory/index.sqlite`: outside every sandbox, its user's alone (0600). */
  readonly index: string;
  /** The machine's cache folder, where sqlite-vec's extension is loaded from. */
  readonly cache: string;
  /** The SQLite store's database of its conversations, indexed too when it is there. */
  readonly storeDatabase: string;
}

/** The memory place of an agent (its `Agent/` is under its folder whatever Home it was given). */
export function memoryPlaceOf(
  paths: LinkPaths,
  agent: { readonly id: string; readonly name: string },
): MemoryPlace {
  return {
    agentId: agent.id,
    agentFolder: joinPath(paths.agentFolder(agent.name), "Agent"),
    index: joinPath(paths.agentState(agent.id), "memory", "index.sqlite"),
    cache: paths.cache,
    storeDatabase: paths.storeDatabase(agent.id),
  };
}
