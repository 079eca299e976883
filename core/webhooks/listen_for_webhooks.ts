import { type AgentKey, type Clock, type LinkPaths, logger } from "../base/mod.ts";
import { type AgentSettings, loadAgentConfig, loadSettings, updateSettings } from "../agent/mod.ts";
import { handIn } from "./hand_in.ts";
import { hookDir } from "./hook_secrets.ts";
import type { Sift } from "./sift.ts";
import { webhookHandler, type WebhookHandlerOptions } from "./webhook_handler.ts";

const log = logger("webhook");

/** The address webhooks listen on, and only it (WHK-1): public only through `lnk tunnel open`. */
export const WEBHOOK_HOST = "127.0.0.1";

/** Harnesses that keep who a message is from and a conversation's tools (WHK-5): Link Harness today. */
export const SENDER_AWARE_HARNESSES: readonly string[] = ["link"];

/** A running listener: its port, and a stop that waits for its posts. */
export interface WebhookListener extends AsyncDisposable {
  readonly port: number;
}

/** What the listener is given beside the agent: its key for the door, a clock and sifts for tests. */
export interface ListenOptions {
  key: AgentKey;
  clock?: Clock;
  sifts?: ReadonlyMap<string, Sift>;
  maxBody?: number;
  /** Where posts are handed in: the agent's door unless told (a test's harness socket). */
  endpoint?: { port: number } | { path: string };
}

/**
 * Opens the agent's webhook listener in its bridge (WHK-1, WHK-2) when it has webhooks: on
 * 127.0.0.1 only, on the port its settings keep, or on one the system picks the first time, then
 * kept there so a tunnel to it works after every restart. Undefined when the agent has no hooks,
 * or when another program holds its port (said in the log: the bridge runs on without it).
 */
export async function listenForWebhooks(
  paths: LinkPaths,
  agent: AgentSettings,
  options: ListenOptions,
): Promise<WebhookListener | undefined> {
  const kept = agent.webhooks;
  if (!kept || (kept.port === undefined && Object.keys(kept.hooks).length === 0)) return undefined;
  if (!SENDER_AWARE_HARNESSES.includes(agent.harness)) {
    log.error("Cannot listen for webhooks: the agent's harness cannot keep a post apart from its owner's", {
      agent: agent.id,
      harness: agent.harness,
    });
    return undefined;
  }
  const handler = webhookHandler(handlerOptions(paths, agent, options));
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      { hostname: WEBHOOK_HOST, port: kept.port ?? 0, onListen() {} },
      (req) => handler.handle(req),
    );
  } catch (err) {
    if (!(err instanceof Deno.errors.AddrInUse)) throw err;
    log.error("Cannot listen for webhooks: another program holds the port", {
      agent: agent.id,
      port: kept.port,
      code: "PORT_UNAVAILABLE",
    });
    return undefined;
  }
  const port = server.addr.port;
  if (kept.port === undefined) {
    await updateSettings(paths, agent.id, (now) => ({
      ...now,
      webhooks: { hooks: now.webhooks?.hooks ?? {}, ...now.webhooks, port: now.webhooks?.port ?? port },
    }));
  }
  log.info("Listening for webhooks", { agent: agent.id, host: WEBHOOK_HOST, port });
  return {
    port,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await handler[Symbol.asyncDispose]();
    },
  };
}

function handlerOptions(
  paths: LinkPaths,
  agent: AgentSettings,
  options: ListenOptions,
): WebhookHandlerOptions {
  const caller = { agentId: agent.id, agentName: agent.name, key: options.key };
  const endpoint = options.endpoint ?? { port: agent.ports.endpoint };
  return {
    hooks: async () => (await loadSettings(paths, agent.id)).webhooks?.hooks ?? {},
    hookDir: (name) => hookDir(paths, agent.id, name),
    strangersTools: async () => (await loadAgentConfig(paths, agent)).spec.access.strangers_tools,
    handIn: (message) => handIn({ endpoint, caller }, message),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sifts ? { sifts: options.sifts } : {}),
    ...(options.maxBody ? { maxBody: options.maxBody } : {}),
  };
}
