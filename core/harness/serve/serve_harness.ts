import type { AgentKey } from "../../base/mod.ts";
import { harnessHandler } from "../endpoint/harness_handler.ts";
import type { ServedAgent } from "../endpoint/served_agent.ts";
import { AgentTurns } from "../turns/agent_turns.ts";
import type { TurnAgent } from "../turns/turn_agent.ts";

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
 * Serves Link Harness's endpoint on a unix socket and, for each agent, finishes the turns its
 * last process left (TRN-4): the answers are kept for `/_link/recover` (TRN-5).
 */
export async function serveHarness(options: ServeHarnessOptions): Promise<HarnessServer> {
  const stop = new AbortController();
  const served: ServedAgent[] = options.agents.map(({ agent, key }) => ({
    turns: new AgentTurns(agent, { signal: stop.signal }),
    key,
    sessions: new Map(),
  }));
  await Deno.remove(options.socket).catch(() => {});
  const server = Deno.serve(
    { path: options.socket, transport: "unix", onListen() {} },
    harnessHandler(served, { clock: options.agents[0]?.agent.clock }),
  );
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    stopping ??= (async () => {
      stop.abort();
      await Promise.all(served.map((s) => s.turns.settled()));
      await server.shutdown();
    })();
  if (options.signal?.aborted) await shutdown();
  options.signal?.addEventListener("abort", () => void shutdown(), { once: true });
  for (const s of served) await s.turns.recover();
  return {
    agents: served.map((s) => s.turns),
    finished: server.finished,
    async [Symbol.asyncDispose]() {
      await shutdown();
    },
  };
}
