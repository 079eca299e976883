import { z } from "zod";
import { errorResponse, LinkError } from "../base/mod.ts";
import { QUERY_MAX_CHARS, SEARCH_LIMIT_MAX } from "../memory/mod.ts";
import type { MemoryService } from "./memory_service.ts";

const AgentId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/);
const Attach = z.strictObject({
  agent: AgentId,
  embed: z.strictObject({
    socket: z.string().startsWith("/").max(4096),
    proof: z.string().regex(/^[0-9a-f]{64}$/),
    model: z.string().min(1).max(200),
  }).optional(),
});
const Search = z.strictObject({
  agent: AgentId,
  query: z.string().max(QUERY_MAX_CHARS),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).optional(),
  /** The asking conversation, whose own events are left out. */
  exclude: z.string().max(1000).optional(),
});
const Note = z.strictObject({
  agent: AgentId,
  name: z.string().max(200),
  text: z.string().max(1024 * 1024),
  append: z.boolean().optional(),
});
const Detach = z.strictObject({ agent: AgentId });

/**
 * The memory service's answers on its unix socket (only its user reaches it: the socket is 0600
 * in `~/.lnk/run/`, which no sandbox sees): `GET /state`; `POST /attach`, whose answer stays open
 * for the agent's session and whose end, or the caller's, ends it; `POST /detach`; `POST /search`;
 * `POST /write_note`. Every error is Link's one error shape.
 */
export async function answerMemory(service: MemoryService, req: Request): Promise<Response> {
  const route = new URL(req.url).pathname;
  try {
    if (req.method === "GET" && route === "/state") return Response.json(service.state());
    if (req.method !== "POST") throw unknownRoute(req.method, route);
    if (route === "/attach") return await attach(service, parsed(Attach, await bodyOf(req), route));
    if (route === "/detach") {
      service.detach(parsed(Detach, await bodyOf(req), route).agent);
      return Response.json({ detached: true });
    }
    if (route === "/search") {
      const { agent, query, ...options } = parsed(Search, await bodyOf(req), route);
      return Response.json(await service.search(agent, query, options));
    }
    if (route === "/write_note") {
      const { agent, ...note } = parsed(Note, await bodyOf(req), route);
      return Response.json(await service.writeNote(agent, note));
    }
    throw unknownRoute(req.method, route);
  } catch (err) {
    return errorResponse(err);
  }
}

async function attach(service: MemoryService, request: z.infer<typeof Attach>): Promise<Response> {
  const join = await service.attach(request);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        new TextEncoder().encode(`${JSON.stringify({ attached: request.agent, pid: Deno.pid })}\n`),
      );
      service.ended.then(() => {
        try {
          controller.close();
        } catch { /* already cancelled */ }
      });
    },
    cancel() {
      // The bridge let go (the agent sleeps or stops), or died: the session ends.
      service.detach(request.agent, join);
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}

async function bodyOf(req: Request): Promise<unknown> {
  try {
    return await req.json();
  } catch {
    return undefined;
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, route: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new LinkError("INVALID", `Cannot take the memory call ${route}: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

function unknownRoute(method: string, route: string): LinkError {
  return new LinkError("UNSUPPORTED", `No route ${method} ${route}`);
}
