import { logger } from "../../base/mod.ts";
import { EndpointGuard, type EndpointHandler, PROOF_PATH } from "../../../connections/mod.ts";
import type { Clock } from "../../base/mod.ts";
import { AcpRequest, errorAnswer } from "./acp_request.ts";
import { acpRoute } from "./acp_route.ts";
import { BUSY_PATH, busyRoute } from "./busy_route.ts";
import { RECOVER_ACK_PATH, RECOVER_PATH, recoverAckRoute, recoverRoute } from "./recover_route.ts";
import { agentFor, type ServedAgent } from "./served_agent.ts";

const log = logger("harness");

/**
 * Link Harness's endpoint (ARCHITECTURE.md section 5, U-1): the proof route, ACP over `POST
 * /acp` with streamed answers, `/_link/recover`, and `/_link/busy` for the bridge (PRC-10). Every request but the proof proves the
 * caller holds the agent's key, with a challenge handed out on the same connection (BRG-2); one for
 * an agent this process does not run is refused before any model call (ADP-4).
 */
export function harnessHandler(
  agents: readonly ServedAgent[],
  options: { clock?: Clock; guard?: EndpointGuard } = {},
): EndpointHandler {
  const byId = new Map(agents.map((a) => [a.turns.agent.id, a]));
  // Given when the endpoint answered proofs before its agents were loaded: the challenges it handed out hold.
  const guard = options.guard ??
    new EndpointGuard({ keyFor: (id) => byId.get(id)?.key, clock: options.clock });
  return async (raw, conn) => {
    const url = new URL(raw.url, "http://endpoint");
    if (raw.method === "GET" && url.pathname === "/") return Response.json({ harness: "link", ok: true });
    const served = agentFor(agents, raw);
    if (!served) {
      return errorAnswer(403, {
        code: "REFUSED",
        message: "This endpoint does not answer for that agent",
      }, {});
    }
    const req = raw;
    const named = withAgentId(raw, served.turns.agent.id);
    if (req.method === "GET" && url.pathname === PROOF_PATH) return guard.answerProof(named, conn);
    const known = url.pathname === "/acp" || url.pathname === RECOVER_PATH ||
      url.pathname === RECOVER_ACK_PATH || url.pathname === BUSY_PATH;
    if (!known) return new Response("Not found", { status: 404 });
    const proved = guard.verify(named, conn);
    if (!proved.ok) {
      return errorAnswer(401, {
        code: "PROOF_FAILED",
        message: `The caller did not prove the agent's key: ${proved.reason}`,
      }, {});
    }
    const next = guard.nextChallenge(proved.agentId, conn);
    // An answer that takes long holds its caller's next challenge until it ends.
    const hold = () => guard.hold(next["Link-Challenge"]!);
    try {
      if (req.method === "GET" && url.pathname === RECOVER_PATH) {
        return await recoverRoute(served, req, next, hold);
      }
      if (req.method === "GET" && url.pathname === BUSY_PATH) return busyRoute(served, next);
      if (req.method === "POST" && url.pathname === RECOVER_ACK_PATH) {
        return await recoverAckRoute(served, req, next);
      }
      if (req.method !== "POST" || url.pathname !== "/acp") return new Response("Not found", { status: 404 });
      const rpc = AcpRequest.safeParse(await req.json().catch(() => undefined));
      if (!rpc.success) return errorAnswer(400, { code: "INVALID", message: "Not an ACP request" }, next);
      return await acpRoute(served, rpc.data, req, next, hold);
    } catch (err) {
      log.error("Cannot answer a request", { agent: served.turns.agent.id, path: url.pathname, error: err });
      return errorAnswer(500, {
        code: "INTERNAL",
        message: `the harness failed: ${err instanceof Error ? err.message : err}`,
        hint: "Run `lnk agent logs` to see what the harness said",
      }, next);
    }
  };
}

/**
 * The request's head with the agent it is for named by ID, as the guard reads it. A new request
 * with no body, so the one served is left as it came.
 */
function withAgentId(req: Request, id: string): Request {
  if (req.headers.get("link-agent-id") === id) return req;
  const headers = new Headers(req.headers);
  headers.set("link-agent-id", id);
  return new Request(req.url, { headers });
}
