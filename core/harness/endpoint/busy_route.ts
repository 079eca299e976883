import type { ServedAgent } from "./served_agent.ts";

/** The route where the bridge asks whether the agent may sleep (PRC-10). */
export const BUSY_PATH = "/_link/busy";

/** What `GET /_link/busy` answers: turns running in this harness and background command locks held. */
export interface BusyAnswer {
  turns: number;
  locks: number;
}

/**
 * `GET /_link/busy`: whether a turn runs or a background command holds its lock, so the bridge
 * lets an idle agent sleep only when neither does (PRC-10). Proven like every route but the proof.
 */
export function busyRoute(served: ServedAgent, next: Record<string, string>): Response {
  const answer: BusyAnswer = { turns: served.turns.running, locks: served.turns.locks.held };
  return Response.json(answer, { headers: next });
}
