import { type ErrorCode, isLinkError, logger } from "../../base/mod.ts";
import { checkMessageFits } from "../compaction/mod.ts";
import { fixedTokens } from "../turns/prepare_messages.ts";
import { narrowConversationTools } from "../turns/conversation_tools.ts";
import {
  type AcpRequest,
  errorAnswer,
  type LinkMeta,
  ndjson,
  SessionCancelParams,
  SessionNewParams,
  SessionPromptParams,
} from "./acp_request.ts";
import { NdjsonSink } from "./ndjson_sink.ts";
import type { ServedAgent } from "./served_agent.ts";

const log = logger("harness");

/** Answers one proven ACP request for an agent: session/new, session/prompt, session/cancel. */
export async function acpRoute(
  served: ServedAgent,
  rpc: AcpRequest,
  req: Request,
  next: Record<string, string>,
  hold: () => () => void,
): Promise<Response> {
  const id = rpc.id ?? null;
  switch (rpc.method) {
    case "session/new": {
      const params = SessionNewParams.safeParse(rpc.params);
      if (!params.success) return invalid(id, params.error.message, next);
      const thread = params.data._meta?.["link.local/thread"] ?? "link:main";
      served.sessions.set(thread, thread);
      await narrow(served, thread, params.data._meta);
      return ndjson([{ jsonrpc: "2.0", id, result: { sessionId: thread } }], next);
    }
    case "session/prompt":
      return await prompt(served, rpc, req, next, hold);
    case "session/cancel": {
      const params = SessionCancelParams.safeParse(rpc.params);
      if (!params.success) return invalid(id, params.error.message, next);
      const thread = served.sessions.get(params.data.sessionId) ?? params.data.sessionId;
      const cancelled = served.turns.cancel(thread);
      log.info("Cancel asked", { agent: served.turns.agent.id, conversation: thread, cancelled });
      return rpc.id === undefined ? new Response(null, { headers: next }) : ndjson([{
        jsonrpc: "2.0",
        id,
        result: { _meta: { "link.local/cancelled": cancelled } },
      }], next);
    }
    default:
      return ndjson([{
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: `Method "${rpc.method}" is not answered` },
      }], next);
  }
}

async function prompt(
  served: ServedAgent,
  rpc: AcpRequest,
  req: Request,
  next: Record<string, string>,
  hold: () => () => void,
): Promise<Response> {
  const params = SessionPromptParams.safeParse(rpc.params);
  if (!params.success) return invalid(rpc.id ?? null, params.error.message, next);
  const { sessionId, prompt, _meta: meta } = params.data;
  const agent = served.turns.agent;
  const thread = meta?.["link.local/thread"] ?? served.sessions.get(sessionId) ?? sessionId;
  const text = prompt.map((p) => (p.type === "text" ? p.text ?? "" : "")).join("");
  if (!text.trim()) {
    return errorAnswer(400, { code: "INVALID", message: "the message has no text" }, next);
  }
  const tooLong = await overContext(served, thread, text);
  if (tooLong) return errorAnswer(413, tooLong, next);
  await narrow(served, thread, meta);
  const request = meta?.["link.local/request"] ?? `${agent.clock.now()}-${crypto.randomUUID().slice(0, 8)}`;
  const from = req.headers.get("link-from") ?? undefined;
  const hops = hopsOf(req.headers.get("link-hops"), meta?.["link.local/hops"]);
  // Only a queued message waits for its caller; the request's signal is read only then.
  const gone = agent.turns.busy === "queue" ? req.signal : undefined;
  const reception = await served.turns.receive({ conversation: thread, text, from, hops, request }, gone);
  if (reception.kind === "steered") {
    return new Response(null, { status: 202, headers: { "Link-Steered": String(reception.n), ...next } });
  }
  if (reception.kind === "busy") {
    return errorAnswer(409, {
      code: "AGENT_BUSY",
      message: "the agent is answering another message in this conversation",
      hint: "Send the message again once the answer comes",
    }, next);
  }
  const sink = new NdjsonSink(rpc.id ?? null, sessionId, {
    headers: next,
    onEnd: hold(),
    acknowledges: meta?.["link.local/receipt"] === true,
  });
  reception.start(sink);
  return sink.response;
}

/** Refuses a message that could never fit the model's context, before anything is written. */
async function overContext(
  served: ServedAgent,
  thread: string,
  text: string,
): Promise<{ code: ErrorCode; message: string; hint?: string } | undefined> {
  const agent = served.turns.agent;
  try {
    checkMessageFits(text, {
      contextTokens: agent.contextTokens,
      fixedTokens: fixedTokens(agent, await agent.tools.definitions(thread)),
    });
    return undefined;
  } catch (err) {
    if (!isLinkError(err, "REFUSED")) throw err;
    log.info("Refused a message longer than the model's context", { agent: agent.id, conversation: thread });
    const sizes = /\(([^)]*)\)\s*$/.exec(err.message)?.[1];
    return {
      code: "REFUSED",
      message: `the message is longer than the model's context${sizes ? ` (${sizes})` : ""}`,
      hint: err.hint,
    };
  }
}

async function narrow(served: ServedAgent, thread: string, meta: LinkMeta | undefined): Promise<void> {
  const tools = meta?.["link.local/tools"];
  if (tools) await narrowConversationTools(served.turns.agent.store, thread, tools);
}

/**
 * The hops a message came with: `Link-Hops`, as the door let it through, else `_meta
 * link.local/hops`; the larger when both say, so a hop is never lost (TEAM-8).
 */
function hopsOf(header: string | null, meta: number | undefined): number | undefined {
  const said = header !== null && /^\d{1,6}$/.test(header.trim()) ? Number(header.trim()) : undefined;
  if (said === undefined) return meta;
  return meta === undefined ? said : Math.max(said, meta);
}

function invalid(id: number | string | null, detail: string, next: Record<string, string>): Response {
  return ndjson(
    [{ jsonrpc: "2.0", id, error: { code: -32602, message: `Invalid params: ${detail}` } }],
    next,
  );
}
