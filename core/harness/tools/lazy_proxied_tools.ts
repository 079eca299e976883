import { type Clock, logger } from "../../base/mod.ts";
import type { JsonValue, ToolDefinition } from "../model/mod.ts";
import type { ProxiedTools } from "./proxied_call.ts";

const log = logger("harness");

/** A tool as an MCP server lists it: what the model is told of it is made from these alone. */
export interface McpTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** One server's tools as the tool proxy listed them. */
export interface ListedServer {
  readonly server: string;
  readonly tools: readonly McpTool[];
}

/** A tool of Link's as the model is told of it (PRN-2): the same bytes however it was listed. */
export function proxiedDefinition(tool: McpTool): ToolDefinition {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description ?? "",
      parameters: tool.inputSchema as { [key: string]: JsonValue },
    },
  };
}

/**
 * Keeps, in the servers' order, each listed tool whose name no earlier one took (the harness's own
 * tools' names come in `taken`), saying in the log each one left out.
 */
export function keptTools(
  listed: readonly ListedServer[],
  taken: readonly string[],
  agentId: string,
): { server: string; tool: McpTool }[] {
  const names = new Set(taken);
  const kept: { server: string; tool: McpTool }[] = [];
  for (const { server, tools } of listed) {
    for (const tool of tools) {
      if (names.has(tool.name)) {
        log.warn("A tool of Link's tools has the name of one of the harness's own: it is left out", {
          agent: agentId,
          server,
          tool: tool.name,
        });
        continue;
      }
      names.add(tool.name);
      kept.push({ server, tool });
    }
  }
  return kept;
}

/** What lazyProxiedTools reaches, and the tools the bridge listed for it. */
export interface LazyProxiedToolsOptions {
  /** The tool proxy's base, `http://127.0.0.1:<port>/_link/s/<secret>/`: it holds the secret. */
  readonly url: string;
  /** Its unix socket, reached directly, where the sandbox has no loopback of its own. */
  readonly socket?: string;
  /** Each server's tools as the bridge listed them, handed over in the harness's input. */
  readonly listed: readonly ListedServer[];
  /** Names already taken by the harness's own tools: a server's tool of the same name is left out. */
  readonly taken: readonly string[];
  readonly clock: Clock;
  readonly agentId: string;
}

/**
 * Link's tools as the bridge listed them (SBX-18), told to the model from the start without the MCP
 * SDK (PRC-13): the SDK's client loads at the first call of one (proxied_tools.ts, once), which goes
 * to the proxy as a call of listed tools does.
 */
export function lazyProxiedTools(options: LazyProxiedToolsOptions): ProxiedTools {
  const kept = keptTools(options.listed, options.taken, options.agentId);
  const definitions = kept.map((k) => proxiedDefinition(k.tool));
  const servers = new Map(kept.map((k) => [k.tool.name, k.server]));
  let loaded: Promise<ProxiedTools> | undefined;
  const load = () => {
    loaded ??= import("./proxied_tools.ts").then(({ connectedProxiedTools }) => {
      log.info("Link's tools' MCP client loaded, at the first call of one", { agent: options.agentId });
      return connectedProxiedTools({ ...options, definitions, servers });
    });
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
  return {
    definitions,
    async call(name, args, meta, signal) {
      if (!servers.has(name)) return { content: `There is no tool "${name}"`, ok: false };
      let tools: ProxiedTools;
      try {
        tools = await load();
      } catch (err) {
        log.warn("Link's tools could not be loaded", {
          agent: options.agentId,
          error: err instanceof Error ? err.name : "unknown",
        });
        return { content: `Cannot call ${name}: Link's tools could not be loaded.`, ok: false };
      }
      return await tools.call(name, args, meta, signal);
    },
    async [Symbol.asyncDispose]() {
      await (await loaded?.catch(() => undefined))?.[Symbol.asyncDispose]();
    },
  };
}
