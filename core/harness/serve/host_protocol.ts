import { z } from "zod";
import { ServedAgentInput } from "./harness_input.ts";

/** How the shared harness's host role marks its answers on stdout, apart from anything else printed. */
export const HOST_EVENT_PREFIX = "LINK-HOST ";

/**
 * One agent joining the shared harness (PRC-2): what its own sandboxed harness is handed, the
 * endpoint socket its door relays to, and its own proxy's socket with the port it answers on
 * inside (the agent's own, so no two agents' proxies share one).
 */
export const HostJoin = z.strictObject({
  agent: ServedAgentInput,
  socket: z.string(),
  proxy: z.strictObject({ port: z.number().int().min(1).max(65535), socket: z.string() }).optional(),
});
export type HostJoin = z.infer<typeof HostJoin>;

/**
 * One agent's own places for its commands in a shared harness's sandbox, where `home` is the
 * harness's HOME: its HOME and TMPDIR, each kept from the owner's other agents' commands, as the
 * sandbox's /tmp and home are the one harness's (a harness of its own has them to itself).
 */
export function hostedPlaces(home: string, agentId: string): { home: string; tmp: string } {
  return { home: `${home.replace(/\/+$/, "")}/agents/${agentId}`, tmp: `/tmp/${agentId}` };
}

/** A line on the host role's stdin: an agent joins, or leaves by its ID. */
export const HostCommand = z.union([
  z.strictObject({ join: HostJoin }),
  z.strictObject({ leave: z.string() }),
]);
export type HostCommand = z.infer<typeof HostCommand>;

/** A line the host role answers with, one per command. */
export type HostEvent =
  | { joined: string }
  | { left: string }
  | { failed: string; error: string };
