import { type AgentKey, type Clock, errorResponse, LinkError } from "../../base/mod.ts";
import {
  type EndpointConn,
  EndpointGuard,
  type EndpointHandler,
  PROOF_PATH,
  serveEndpoint,
} from "../../../connections/mod.ts";
import type { ServedAgent } from "../endpoint/served_agent.ts";
import type { AgentTurns } from "../turns/agent_turns.ts";
import type { TurnAgent } from "../turns/turn_agent.ts";
import type { AgentHead } from "./served_heads.ts";

type Handler = EndpointHandler;

/** Link Harness's endpoint, listening on its socket from before its agents are loaded. */
export interface HarnessEndpoint extends AsyncDisposable {
  /**
   * Serves the loaded agents (the same as its heads, in order): the requests held meanwhile go on,
   * and each agent's crashed turns are finished in the background (TRN-4).
   */
  serve(agents: readonly { agent: TurnAgent; key: AgentKey }[]): Promise<readonly AgentTurns[]>;
  /** The agents could not be loaded: held and later requests are answered 500 with why. */
  fail(err: unknown): void;
  /** Resolves once it has stopped. */
  readonly finished: Promise<void>;
}

/** Where the endpoint listens, for whom, and what stops it. */
export interface HarnessEndpointOptions {
  /** The unix socket of its endpoint (`~/.lnk/agents/.net/<id>/endpoint.sock`, relayed by the door). */
  socket: string;
  /** The agents it answers for, its own first (ADP-4): who each is and its key. */
  agents: readonly AgentHead[];
  /** Stops it: running turns stop where they are and are finished at the next start. */
  signal?: AbortSignal;
  clock?: Clock;
}

/**
 * Listens on the harness's socket at once (PRC-13): `GET /` and the proof are answered from the
 * agents' keys alone, so the bridge's handshake goes on while the agents load; every other request
 * waits until serve() has them, then the full endpoint answers it (harnessHandler, with the same
 * guard, so the challenges handed out hold). Recovery runs beside serving (TRN-4): a message to a
 * conversation whose lease a crashed turn left waits on that lease, as every message does.
 */
export async function openHarnessEndpoint(options: HarnessEndpointOptions): Promise<HarnessEndpoint> {
  const stop = new AbortController();
  const byId = new Map(options.agents.map((a) => [a.id, a]));
  const guard = new EndpointGuard({ keyFor: (id) => byId.get(id)?.key, clock: options.clock });
  const full = Promise.withResolvers<Handler>();
  full.promise.catch(() => {});
  let ready: Handler | undefined;
  let served: ServedAgent[] = [];
  const handler: Handler = async (req, conn) => {
    if (ready) return await ready(req, conn);
    const url = new URL(req.url, "http://endpoint");
    if (req.method === "GET" && url.pathname === "/") return Response.json({ harness: "link", ok: true });
    if (req.method === "GET" && url.pathname === PROOF_PATH) {
      return answerProof(guard, options.agents, req, conn);
    }
    try {
      return await (await full.promise)(req, conn);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return errorResponse(new LinkError("INTERNAL", `the harness failed: ${why}`));
    }
  };
  // Served connection by connection, so each challenge holds on the connection it was given on (BRG-2).
  const server = await serveEndpoint({ path: options.socket }, handler);
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    stopping ??= (async () => {
      stop.abort();
      full.reject(new Error("it is stopping"));
      await Promise.all(served.map((s) => s.turns[Symbol.asyncDispose]()));
      await server.shutdown();
    })();
  if (options.signal?.aborted) await shutdown();
  options.signal?.addEventListener("abort", () => void shutdown(), { once: true });
  return {
    async serve(agents) {
      // Loaded only now, after the ready line: nothing delays listening.
      const [{ harnessHandler }, { AgentTurns }] = await Promise.all([
        import("../endpoint/harness_handler.ts"),
        import("../turns/agent_turns.ts"),
      ]);
      served = agents.map(({ agent, key }) => ({
        turns: new AgentTurns(agent, { signal: stop.signal }),
        key,
        sessions: new Map(),
      }));
      ready = harnessHandler(served, { clock: options.clock ?? agents[0]?.agent.clock, guard });
      full.resolve(ready);
      // Beside serving; settled() waits for it at the end.
      for (const s of served) void s.turns.recover();
      return served.map((s) => s.turns);
    },
    fail(err) {
      full.reject(err);
    },
    finished: server.finished,
    [Symbol.asyncDispose]: shutdown,
  };
}

/**
 * `GET /_link/proof` before the agents are loaded, as the full endpoint answers it: for the agent
 * the request names by ID, else by name when only one has it, else the first (ADP-4, ADP-5).
 */
function answerProof(
  guard: EndpointGuard,
  agents: readonly AgentHead[],
  req: Request,
  conn: EndpointConn,
): Response {
  const id = req.headers.get("link-agent-id");
  const name = req.headers.get("link-agent");
  const named = name ? agents.filter((a) => a.name === name) : [];
  const agent = id
    ? agents.find((a) => a.id === id)
    : name
    ? (named.length === 1 ? named[0] : undefined)
    : agents[0];
  if (!agent) {
    return errorResponse(new LinkError("REFUSED", "This endpoint does not answer for that agent"));
  }
  if (req.headers.get("link-agent-id") === agent.id) return guard.answerProof(req, conn);
  const headers = new Headers(req.headers);
  headers.set("link-agent-id", agent.id);
  return guard.answerProof(new Request(req.url, { headers }), conn);
}
