import { z } from "zod";
import { announceReady, decodeKey, errorResponse, LinkError, logger, readStdinLine } from "../../base/mod.ts";
import { EndpointGuard, type EndpointHandler, PROOF_PATH, serveEndpoint } from "../../../connections/mod.ts";

const log = logger("mini");

/** What the mini harness is handed on stdin: the agents it answers for and their keys. */
export const HarnessInput = z.strictObject({
  agents: z.array(z.strictObject({ id: z.string(), name: z.string(), key: z.string() })).min(1),
});
export type HarnessInput = z.infer<typeof HarnessInput>;

const AcpRequest = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.number(), z.string()]),
  method: z.string(),
  params: z.looseObject({}).default({}),
});

/**
 * The mini harness: a tiny harness that answers the endpoint contract (proof, session/new,
 * session/prompt with streamed updates), the reference for tests (ADP-16). It echoes.
 */
export function miniHarnessHandler(input: HarnessInput): EndpointHandler {
  const keys = new Map(input.agents.map((a) => [a.id, decodeKey(a.key)]));
  const guard = new EndpointGuard({ keyFor: (id) => keys.get(id) });
  return async (req, conn) => {
    const url = new URL(req.url, "http://endpoint");
    if (req.method === "GET" && url.pathname === PROOF_PATH) return guard.answerProof(req, conn);
    if (req.method === "GET" && url.pathname === "/") return Response.json({ harness: "mini", ok: true });
    if (req.method !== "POST" || url.pathname !== "/acp") return new Response("Not found", { status: 404 });
    const proved = guard.verify(req, conn);
    if (!proved.ok) {
      const why = `The caller did not prove the agent's key: ${proved.reason}`;
      return errorResponse(new LinkError("PROOF_FAILED", why));
    }
    const next = guard.nextChallenge(proved.agentId, conn);
    const parsed = AcpRequest.safeParse(await req.json().catch(() => undefined));
    if (!parsed.success) {
      return errorResponse(new LinkError("INVALID", "Not an ACP request"), { headers: next });
    }
    const { id, method, params } = parsed.data;
    const thread = String(
      (params._meta as Record<string, unknown> | undefined)?.["link.local/thread"] ?? "link:main",
    );
    if (method === "session/new") {
      return ndjson([{ jsonrpc: "2.0", id, result: { sessionId: thread } }], next);
    }
    if (method !== "session/prompt") {
      return ndjson([{
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: `Method "${method}" is not answered` },
      }], next);
    }
    const prompt = (params.prompt as { type: string; text?: string }[] | undefined) ?? [];
    const text = prompt.map((p) => p.text ?? "").join("");
    log.info("Answered a message", { agent: proved.agentId, thread });
    const update = (t: string) => ({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: params.sessionId ?? thread,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
      },
    });
    return ndjson([update("mini: "), update(text), {
      jsonrpc: "2.0",
      id,
      result: { stopReason: "end_turn" },
    }], next);
  };
}

function ndjson(lines: unknown[], headers: Record<string, string>): Response {
  return new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(""), {
    headers: { "Content-Type": "application/x-ndjson", ...headers },
  });
}

/** `lnk harness mini --socket <path>`: serves the mini harness on a unix socket until stopped. */
export async function runMiniHarnessRole(args: string[], signal: AbortSignal): Promise<number> {
  const socket = args[args.indexOf("--socket") + 1];
  if (!socket || args.indexOf("--socket") < 0) throw new Error("lnk harness mini needs --socket <path>");
  const input = HarnessInput.parse(JSON.parse(await readStdinLine()));
  const server = await serveEndpoint({ path: socket, signal }, miniHarnessHandler(input));
  announceReady({ socket });
  await server.finished;
  return 0;
}
