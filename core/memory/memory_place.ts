import { joinPath, type LinkPaths } from "../base/mod.ts";
import { layoutOf } from "../agent/mod.ts";

/** Where one agent's memory is: the files it is made from, and its index. */
export interface MemoryPlace {
  readonly agentId: string;
  /** The agent's `Agent/` folder, whose `memory/` and `chats/` are indexed. */
  readonly agentFolder: string;
  /** `~/.lnk/agents/<id>/memory/index.sqlite`: outside every sandbox, its user's alone (0600). */
  readonly index: string;
}

/** The memory place of an agent. */
export function memoryPlaceOf(
  paths: LinkPaths,
  agent: { readonly id: string; readonly name: string; readonly home?: string },
): MemoryPlace {
  return {
    agentId: agent.id,
    agentFolder: layoutOf(paths, agent).agent,
    index: joinPath(paths.agentState(agent.id), "memory", "index.sqlite"),
  };
}
