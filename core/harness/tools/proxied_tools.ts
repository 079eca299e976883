import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Clock, logger } from "../../base/mod.ts";
import type { ToolDefinition } from "../model/mod.ts";
import { keptTools, type McpTool, proxiedDefinition } from "./proxied_definitions.ts";
import type { ProxiedCallMeta, ProxiedTools } from "./proxied_call.ts";

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
      for (
        const { tool } of keptTools(
          [{ server, tools: listed.tools as McpTool[] }],
          [...taken],
          options.agentId,
        )
      ) {
        taken.add(tool.name);
        byName.set(tool.name, client);
        definitions.push(proxiedDefinition(tool));
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
      return await callOne(client, { name, args, meta, signal }, options.agentId);
    },
    async [Symbol.asyncDispose]() {
      for (const c of clients) await c.close().catch(() => {});
      http?.close();
    },
  };
}

/** What connectedProxiedTools reaches, and the tools it was handed. */
export interface ConnectedProxiedToolsOptions {
  readonly url: string;
  readonly socket?: string;
  /** The tools as the model is told of them, listed by the bridge. */
  readonly definitions: readonly ToolDefinition[];
  /** Each tool's server, by the tool's name. */
  readonly servers: ReadonlyMap<string, string>;
  readonly clock: Clock;
  readonly agentId: string;
}

/**
 * Link's tools the bridge listed, called through the SDK's client (Streamable HTTP) as listed ones
 * are: a server's client connects at the first call of one of its tools, and again after a failed
 * connect.
 */
export function connectedProxiedTools(options: ConnectedProxiedToolsOptions): ProxiedTools {
  const http = options.socket === undefined
    ? undefined
    : Deno.createHttpClient({ proxy: { transport: "unix", path: options.socket } });
  const fetchVia = http &&
    ((input: string | URL, init?: RequestInit) => fetch(input, { ...init, client: http }));
  const base = options.url.endsWith("/") ? options.url : `${options.url}/`;
  const clients = new Map<string, Promise<Client>>();
  const connect = (server: string): Promise<Client> => {
    const known = clients.get(server);
    if (known) return known;
    const made = (async () => {
      const client = new Client({ name: "link-harness", version: "1.0.0" });
      const stop = new AbortController();
      const timer = options.clock.sleep(PROXIED_LIST_TIMEOUT_MS, stop.signal).then(
        () => stop.abort(),
        () => {},
      );
      try {
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${base}${server}`), { fetch: fetchVia }),
          { signal: stop.signal },
        );
        return client;
      } catch (err) {
        await client.close().catch(() => {});
        throw err;
      } finally {
        stop.abort();
        await timer;
      }
    })();
    clients.set(server, made);
    made.catch(() => clients.delete(server));
    return made;
  };
  return {
    definitions: options.definitions,
    async call(name, args, meta, signal) {
      const server = options.servers.get(name);
      if (server === undefined) return { content: `There is no tool "${name}"`, ok: false };
      let client: Client;
      try {
        client = await connect(server);
      } catch (err) {
        signal.throwIfAborted();
        log.warn("The tool proxy did not answer: Link's tool was not called", {
          agent: options.agentId,
          server,
          error: err instanceof Error ? err.name : "unknown",
        });
        return {
          content: `Cannot call ${name}: Link's tools did not answer. The call was not made.`,
          ok: false,
        };
      }
      return await callOne(client, { name, args, meta, signal }, options.agentId);
    },
    async [Symbol.asyncDispose]() {
      for (const made of clients.values()) await (await made.catch(() => undefined))?.close().catch(() => {});
      http?.close();
    },
  };
}

/** One call of a tool through its server's client, with the conversation's `_meta` (SCH-9). */
async function callOne(
  client: Client,
  call: { name: string; args: unknown; meta: ProxiedCallMeta; signal: AbortSignal },
  agentId: string,
): Promise<{ content: string; ok: boolean }> {
  const { name, meta, signal } = call;
  try {
    const result = await client.callTool(
      {
        name,
        arguments: call.args as Record<string, unknown>,
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
      agent: agentId,
      tool: name,
      error: err instanceof Error ? err.name : "unknown",
    });
    return {
      content: `Cannot call ${name}: Link's tools did not answer. The call may not have been made.`,
      ok: false,
    };
  }
}
