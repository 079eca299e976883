import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { errorResponse, LinkError, logger, type Secret } from "../base/mod.ts";
import { newProxySecret } from "../../proxy/mod.ts";

const log = logger("tool-proxy");

/** The path prefix before the secret, as the agent's egress proxy takes it (SBX-19). */
const SECRET_PREFIX = "/_link/s/";

/** The longest call a harness may send one of Link's tools: a message of 100 000 characters and more. */
export const TOOL_CALL_MAX_BYTES = 1024 * 1024;

/**
 * One MCP server the tool proxy serves at `/_link/s/<secret>/<name>`: made afresh for each call,
 * for the one agent the proxy serves (the caller never says who it is).
 */
export type ToolServerFactory = () => McpServer;

/** What serveToolProxy is started with. */
export interface ServeToolProxyOptions {
  /** The unix socket it listens on, `.net/<id>/tools.sock`. */
  readonly path: string;
  /** The agent it serves, for its log lines; which agent calls is the proxy's own, never the call's. */
  readonly agentId: string;
  /** Its servers by path: `scheduler` (Link Scheduler), memory in its time. */
  readonly servers: Readonly<Record<string, ToolServerFactory>>;
  readonly signal?: AbortSignal;
}

/** A tool as an MCP server lists it (`tools/list`), its words as the server wrote them. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
}

/** One server's tools, as the proxy lists them for the harness's input (PRC-13). */
export interface ListedServer {
  readonly server: string;
  readonly tools: readonly ListedTool[];
}

/** The tool proxy as its bridge holds it. */
export interface ToolProxy extends AsyncDisposable {
  /** Where it listens. */
  readonly socket: string;
  /** Its servers' names, each the path after the secret. */
  readonly servers: readonly string[];
  /**
   * A new secret for a new start of the sandbox (SBX-18, SBX-19): from now on only it is taken, and
   * every earlier one is refused.
   */
  newSecret(): Secret;
  /**
   * Its servers' tools, listed once in this process through the same MCP servers a call reaches
   * (`tools/list`, answered as over the socket), in the servers' order: handed to Link Harness in
   * its input, so a wake never waits on the SDK's client to list them (PRC-13, PRN-2).
   */
  list(): Promise<readonly ListedServer[]>;
  /** Resolves when it stopped listening. */
  readonly finished: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves an agent's tool proxy (SBX-18) on a unix socket of its `.net/<id>/` folder, outside the
 * sandbox, which relays 127.0.0.1:<port> inside to it: MCP over Streamable HTTP at
 * `/_link/s/<secret>/<server>`, each call handed to a fresh server as it comes (stateless, so a
 * call needs nothing of the one before and a restarted harness starts clean). A call without the
 * secret of the sandbox's current start, or with an earlier one, is refused before anything is read.
 */
export async function serveToolProxy(options: ServeToolProxyOptions): Promise<ToolProxy> {
  await Deno.remove(options.path).catch(() => {});
  let secret: Secret | undefined;
  const names = Object.keys(options.servers);
  const stop = new AbortController();
  options.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const server = Deno.serve({
    path: options.path,
    transport: "unix",
    signal: stop.signal,
    onListen: () => {},
  }, (req) => answer(req, secret, options));
  await Deno.chmod(options.path, 0o600).catch(() => {});
  log.debug("Tool proxy open", { agent: options.agentId, servers: names });
  const close = async () => {
    stop.abort();
    await server.finished;
  };
  let listed: Promise<readonly ListedServer[]> | undefined;
  return {
    socket: options.path,
    servers: names,
    newSecret() {
      secret = newProxySecret();
      return secret;
    },
    list() {
      listed ??= listServers(options);
      listed.catch(() => (listed = undefined));
      return listed;
    },
    finished: server.finished,
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function answer(
  req: Request,
  secret: Secret | undefined,
  options: ServeToolProxyOptions,
): Promise<Response> {
  const url = new URL(req.url);
  const rest = secretRest(url.pathname, secret);
  if (rest === undefined) {
    log.info("Refused a tool call without the sandbox's secret", { agent: options.agentId });
    return errorResponse(
      new LinkError("REFUSED", "Cannot call Link's tools: the path does not hold this start's secret", {
        hint: "Call the tool proxy at the address Link gave the harness; a restart makes a new secret",
      }),
      { status: 403 },
    );
  }
  const name = rest.replace(/^\/+|\/+$/g, "");
  const make = Object.hasOwn(options.servers, name) ? options.servers[name] : undefined;
  if (!make) {
    return errorResponse(
      new LinkError("INVALID", `Cannot call Link's tools: there is no tool server "${name}"`, {
        hint: `Call one of: ${Object.keys(options.servers).join(", ")}`,
      }),
      { status: 404 },
    );
  }
  return await served(make, req);
}

/** One request answered by a fresh server of `make`, its answer whole. */
async function served(make: ToolServerFactory, req: Request): Promise<Response> {
  const mcp = make();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: TOOL_CALL_MAX_BYTES,
  });
  try {
    await mcp.connect(transport);
    const response = await transport.handleRequest(req);
    // A JSON answer is whole once made: the server is let go with it.
    const body = await response.arrayBuffer();
    return new Response(body.byteLength ? body : null, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } finally {
    await mcp.close().catch(() => {});
  }
}

/** Each server's `tools/list`, asked in this process as a harness would ask it over the socket. */
async function listServers(options: ServeToolProxyOptions): Promise<ListedServer[]> {
  const listed: ListedServer[] = [];
  for (const [server, make] of Object.entries(options.servers)) {
    const response = await served(
      make,
      new Request("http://127.0.0.1/", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      }),
    );
    const answer = await response.json() as { result?: unknown; error?: unknown };
    // Read as the SDK's client reads a list, so the harness is handed the bytes a client would list.
    const result = ListToolsResultSchema.safeParse(answer.result);
    if (!response.ok || !result.success) {
      throw new LinkError("SERVICE_FAILED", `Cannot list the tools of Link's tool server "${server}"`, {
        hint: `Its answer was ${response.status}: ${JSON.stringify(answer.error ?? answer)}`,
      });
    }
    // What a model is told of a tool, no more: its name, description and input's schema.
    const tools = (result.data.tools as ListedTool[]).map(({ name, description, inputSchema }) => ({
      name,
      ...(description === undefined ? {} : { description }),
      inputSchema,
    }));
    listed.push({ server, tools });
  }
  return listed;
}

/** What follows `/_link/s/<secret>` when the secret is this start's; undefined otherwise. */
function secretRest(path: string, secret: Secret | undefined): string | undefined {
  if (!secret || !path.startsWith(SECRET_PREFIX)) return undefined;
  const end = path.indexOf("/", SECRET_PREFIX.length);
  const given = path.slice(SECRET_PREFIX.length, end < 0 ? undefined : end);
  return secret.matches(given) ? (end < 0 ? "" : path.slice(end)) : undefined;
}
