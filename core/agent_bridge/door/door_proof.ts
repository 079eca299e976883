import type { FramedRequest } from "./http_framing.ts";

/**
 * Unproven places per calling user at the door (BRG-13): more than a bridge's 4, since the owner's
 * own messages (each on a connection of its own, BRG-1) all wait unproven while the agent wakes.
 */
export const DOOR_PLACES_PER_USER = 16;
/** Unproven places of one door (U-10). */
export const DOOR_PLACES = 256;

/**
 * Requests the endpoint answers for anyone (its health and the proof of its key): a 2xx to any
 * other request goes only to a caller that proved it holds the agent's key, and so proves the
 * connection at the door, which reads no more than the framing (PRC-11).
 */
const OPEN_PATHS = new Set(["/", "/_link/proof"]);

/**
 * Whether an answer shows the endpoint took its caller: a 2xx to a request it answers no one
 * else, or its switch to a protocol the door does not read (a harness's own socket, whose callers
 * it judges itself; Link Harness never switches).
 */
export function provesCaller(status: number, request: FramedRequest): boolean {
  const path = request.target.split("?")[0] ?? "";
  if (OPEN_PATHS.has(path)) return false;
  return status === 101 || (status >= 200 && status < 300);
}
