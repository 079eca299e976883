import type { AgentKey } from "../../base/mod.ts";
import type { AgentTurns } from "../turns/agent_turns.ts";
import type { TurnAgent } from "../turns/turn_agent.ts";
import { openHarnessEndpoint } from "./harness_endpoint.ts";

/** How Link Harness serves. */
export interface ServeHarnessOptions {
  /** The agents it answers for, its own first (ADP-4), each with its key. */
  agents: readonly { agent: TurnAgent; key: AgentKey }[];
  /** The unix socket of its endpoint (`~/.lnk/agents/.net/<id>/endpoint.sock`, relayed by the door). */
  socket: string;
  /** Stops it: running turns stop where they are and are finished at the next start. */
  signal?: AbortSignal;
}

/** A running Link Harness. */
export interface HarnessServer extends AsyncDisposable {
  /** Each agent's turns, in the order given. */
  readonly agents: readonly AgentTurns[];
  /** Resolves once it has stopped. */
  readonly finished: Promise<void>;
}

/**
 * Serves Link Harness's endpoint on a unix socket for agents already loaded and, for each agent,
 * finishes the turns its last process left, beside serving (TRN-4): the answers are kept for
 * `/_link/recover` (TRN-5).
 */
export async function serveHarness(options: ServeHarnessOptions): Promise<HarnessServer> {
  const endpoint = await openHarnessEndpoint({
    socket: options.socket,
    agents: options.agents.map(({ agent, key }) => ({ id: agent.id, name: agent.name, key })),
    signal: options.signal,
    clock: options.agents[0]?.agent.clock,
  });
  const agents = await endpoint.serve(options.agents);
  return {
    agents,
    finished: endpoint.finished,
    [Symbol.asyncDispose]: () => endpoint[Symbol.asyncDispose](),
  };
}
