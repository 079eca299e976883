import { join } from "node:path";
import {
  announceError,
  announceReady,
  homeFrom,
  isLinkError,
  LinkError,
  LinkPaths,
  logger,
  parseDuration,
  PORT_TAKEN_EXIT,
  raiseFdLimit,
} from "../base/mod.ts";
import { loadAgentConfig } from "../agent/mod.ts";
import { serveStoreBridge, serveWayIn, storeDriverFor } from "./bridges/mod.ts";
import { agentContext } from "../agent/mod.ts";
import { readKey } from "../agent/mod.ts";
import { type AgentSettings, loadSettings } from "../agent/mod.ts";
import { askHarnessBusy, openAgentDoor, stoppedAccepting } from "./door/mod.ts";
import { type InBridgeStarter, inBridgeStarter } from "../agent/launch/mod.ts";
import { roleAgentId } from "../agent/mod.ts";
import { warmHarnessCode } from "../agent/launch/mod.ts";
import { runConnectionBridges } from "./connection_bridges.ts";
import { listenForWebhooks } from "../webhooks/mod.ts";

const log = logger("bridge");

/**
 * `lnk agent bridge --agent <id> [--foreground]`: the agent's bridge, outside the sandbox. It holds
 * the agent's port (the door), wakes the agent itself (its proxy here, its sandbox with the harness
 * as this process's child: PRC-13), relays each connection to the harness's endpoint socket, and
 * lets the agent sleep when idle (PRC-10). It says it is ready once the door is open and the agent
 * awake. With --foreground it runs in a terminal's session and has no service log to read.
 */
export async function runBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const id = roleAgentId(args);
  log.debug("Descriptor limit", { ...raiseFdLimit() });
  const paths = new LinkPaths(homeFrom(Deno.env));
  const settings = await loadSettings(paths, id);
  const { spec } = await loadAgentConfig(paths, settings);
  const key = await readKey(paths, id);
  if (!key) {
    throw new LinkError(
      "AGENT_NOT_RUNNING",
      `Cannot open the door of agent "${settings.name}": it has no key bound`,
      {
        hint: "Start it with `lnk agent start`",
      },
    );
  }
  const socket = join(paths.net(id), "endpoint.sock");
  const caller = { agentId: id, agentName: settings.name, key };
  const port = settings.ports.endpoint;
  const door = await openAgentDoor({
    agentId: id,
    port,
    socket,
    starter: starterFor(settings, { paths, socket }),
    idleAfterMs: parseDuration(spec.run.idle_after),
    askHarness: () => askHarnessBusy(socket, caller),
    key,
  }).catch((err) => {
    if (!isLinkError(err, "PORT_UNAVAILABLE")) throw err;
    return err;
  });
  if (door instanceof LinkError) {
    log.error("Cannot hold the agent's port: another program holds it", {
      agent: id,
      port,
      code: "PORT_UNAVAILABLE",
    });
    // Its starter moves the agent on this exit code (PRT-4); the line says why to whoever reads it.
    announceError(door);
    return PORT_TAKEN_EXIT;
  }
  await using _door = door;
  const served = { agent: { id, owner: settings.owner }, key, paths };
  await using store = await serveStoreBridge({ ...served, driver: storeDriverFor(paths, settings, spec) });
  await using wayIn = await serveWayIn(served);
  // Posts to its webhooks come to its door as strangers' messages, on 127.0.0.1 only (WHK-1).
  await using _webhooks = await listenForWebhooks(paths, settings, { key });
  log.info("Door open", { agent: id, port, idle_after: spec.run.idle_after });
  // Started awake, once everything its harness calls is served; a failure ends the role with its reason.
  await door.wake();
  announceReady({ port, state: door.state });
  warmHarnessCode(Deno.env.toObject());
  // Each connection is carried from here, outside the sandbox, holding its token (CON-11, CON-12).
  const carrying = new AbortController();
  const carriers = runConnectionBridges(paths, settings, carrying.signal);
  try {
    // A door or bridge that stopped accepting on its own ends the role with why: never a bridge
    // that looks alive with no door.
    await Promise.race([stoppedBy(signal), stoppedAccepting(door, store, wayIn)]);
  } finally {
    carrying.abort();
    await carriers;
  }
  return 0;
}

function stoppedBy(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** The agent started by this bridge itself; a failed start says the error it failed with. */
function starterFor(agent: AgentSettings, where: { paths: LinkPaths; socket: string }): InBridgeStarter {
  const ctx = agentContext(Deno.env, { home: where.paths.home });
  return inBridgeStarter(ctx, agent, { socket: where.socket });
}
