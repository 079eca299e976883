import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Clock, logger } from "../../base/mod.ts";
import type { JsonValue, ToolDefinition } from "../model/mod.ts";
import type { ProxiedTools } from "./proxied_call.ts";

const log = logger("harness");

/** How long the harness waits for the tool proxy to list its tools before it goes on without them. */
export const PROXIED_LIST_TIMEOUT_MS = 10_000;

/** What listProxiedTools reaches. */
export interface ListProxiedToolsOptions {
  /** The tool proxy's base, `http://127.0.0.1:<port>/_link/s/<secret>/`: it holds the secret. */
  readonly url: string;
  /** The servers behind it, each the path after the base. */
  readonly servers: readonly string[];
  /** Names already taken by the harness's own tools: a server's tool of the same name is left out. */
  readonly taken: readonly string[];
  /** Its unix socket, reached directly, where the sandbox has no loopback of its own. */
  readonly socket?: string;
  readonly clock: Clock;
  readonly agentId: string;
}

/**
 * Lists the tools of the tool proxy's MCP servers through the SDK's client (Streamable HTTP), once
 * at the harness's start, so they join its fixed list (PRN-2). A server that does not answer is
 * left out, said in the log, and the harness's own tools work on: it never holds a start up.
 */
export async function listProxiedTools(options: ListProxiedToolsOptions): Promise<ProxiedTools> {
  const clients: Client[] = [];
  const byName = new Map<string, Client>();
  const definitions: ToolDefinition[] = [];
  const taken = new Set(options.taken);
  const http = options.socket === undefined
    ? undefined
    : Deno.createHttpClient({ proxy: { transport: "unix", path: options.socket } });
  const fetchVia = http &&
    ((input: string | URL, init?: RequestInit) => fetch(input, { ...init, client: http }));
  for (const server of options.servers) {
    const base = options.url.endsWith("/") ? options.url : `${options.url}/`;
    const client = new Client({ name: "link-harness", version: "1.0.0" });
    const stop = new AbortController();
    const timer = options.clock.sleep(PROXIED_LIST_TIMEOUT_MS, stop.signal).then(
      () => stop.abort(),
      () => {},
    );
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}${server}`), { fetch: fetchVia }),
        {
          signal: stop.signal,
        },
      );
      const listed = await client.listTools(undefined, { signal: stop.signal });
      for (const tool of listed.tools as McpTool[]) {
        if (taken.has(tool.name)) {
          log.warn("A tool of Link's tools has the name of one of the harness's own: it is left out", {
            agent: options.agentId,
            server,
            tool: tool.name,
          });
          continue;
        }
        taken.add(tool.name);
        byName.set(tool.name, client);
        definitions.push({
          type: "function",
          function: {
            name: tool.name,
            description: tool.description ?? "",
            parameters: tool.inputSchema as { [key: string]: JsonValue },
          },
        });
      }
      clients.push(client);
    } catch (err) {
      log.warn("The tool proxy did not list its tools: the harness's own tools work without them", {
        agent: options.agentId,
        server,
        // The error's text may hold the address, and so the secret: only its kind is said.
        error: err instanceof Error ? err.name : "unknown",
      });
      await client.close().catch(() => {});
    } finally {
      stop.abort();
      await timer;
    }
  }
  log.info("Link's tools listed", { agent: options.agentId, tools: definitions.map((d) => d.function.name) });
  return {
    definitions,
    async call(name, args, meta, signal) {
      const client = byName.get(name);
      if (!client) return { content: `There is no tool "${name}"`, ok: false };
      try {
        const result = await client.callTool(
          {
            name,
            arguments: args as Record<string, unknown>,
            _meta: {
              "link.local/thread": meta.thread,
              "link.local/hops": meta.hops,
              "link.local/tools": [...meta.tools],
            },
          },
          undefined,
          { signal },
        );
        const content = (result.content as { type: string; text?: string }[] | undefined) ?? [];
        return {
          content: content.map((c) => (c.type === "text" ? c.text ?? "" : `[${c.type}]`)).join("\n"),
          ok: result.isError !== true,
        };
      } catch (err) {
        signal.throwIfAborted();
        log.warn("A call of Link's tools failed", {
          agent: options.agentId,
          tool: name,
          error: err instanceof Error ? err.name : "unknown",
        });
        return {
          content: `Cannot call ${name}: Link's tools did not answer. The call may not have been made.`,
          ok: false,
        };
      }
    },
    async [Symbol.asyncDispose]() {
      for (const c of clients) await c.close().catch(() => {});
      http?.close();
    },
  };
}

/** A tool as an MCP server lists it. */
interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}
