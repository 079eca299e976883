import { joinPath as join, type LinkPaths } from "../base/mod.ts";

/** The store bridge's socket in an agent's socket folder (`~/.lnk/agents/.net/<id>/`). */
export const STORE_SOCKET = "store.sock";
/** The way in's socket: where others' messages to the agent come in (send.sock). */
export const SEND_SOCKET = "send.sock";

/** Where the agent's store bridge listens. */
export function storeSocketPath(paths: LinkPaths, agentId: string): string {
  return join(paths.net(agentId), STORE_SOCKET);
}

/** Where the agent's way in listens. */
export function sendSocketPath(paths: LinkPaths, agentId: string): string {
  return join(paths.net(agentId), SEND_SOCKET);
}
