import { type Clock, logger } from "../../base/mod.ts";
import type { ProxiedTools } from "./proxied_call.ts";
import { keptTools, type ListedServer, proxiedDefinition } from "./proxied_definitions.ts";

export type { ListedServer } from "./proxied_definitions.ts";

const log = logger("harness");

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
