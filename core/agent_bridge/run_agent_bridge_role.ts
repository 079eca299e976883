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
import { layoutOf, loadAgentConfig, sendSocketPath } from "../agent/mod.ts";
import { agentTimeZone, keepAgentRunner } from "../scheduler/mod.ts";
import { serveStoreBridge, serveWayIn, storeDriverFor } from "./bridges/mod.ts";
import { agentContext } from "../agent/mod.ts";
import { readKey } from "../agent/mod.ts";
import { type AgentSettings, loadSettings } from "../agent/mod.ts";
import { askHarnessBusy, openAgentDoor, stoppedAccepting } from "./door/mod.ts";
import { type InBridgeStarter, inBridgeStarter, type ToolProxySeat } from "../agent/launch/mod.ts";
import { roleAgentId } from "../agent/mod.ts";
import { warmHarnessCode } from "../agent/launch/mod.ts";
import { runConnectionBridges } from "./connection_bridges.ts";
import { AgentTools } from "./agent_tools.ts";
import { MemorySeat } from "./memory_seat.ts";
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
  // Link Memory (MEM-1), when on: a session at each wake, its tools, its embedding endpoint.
  await using memory = spec.memory.on ? new MemorySeat(paths, settings, { spec, key }) : undefined;
  // Link's tools (SBX-18), outside the sandbox; each start of the sandbox makes its secret.
  const tools = new AgentTools(paths, settings, spec, { memory });
  const starter = starterFor(settings, { paths, socket, toolProxy: tools });
  const door = await openAgentDoor({
    agentId: id,
    port,
    socket,
    starter: memory ? memory.starter(starter) : starter,
    idleAfterMs: parseDuration(spec.run.idle_after),
    askHarness: () => askHarnessBusy(socket, caller),
    key,
    teams: { paths, agent: { id, name: settings.name, owner: settings.owner } },
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
  await memory?.serve();
  await using toolProxy = await tools.serve();
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
  // Its scheduler runner, this process's child (PRC-5), started once the agent answers.
  await using _runner = spec.tool.scheduler.wake === "address"
    ? noRunner(settings)
    : await startRunnerOf(paths, settings, spec.run.time_zone);
  try {
    // A door or bridge that stopped accepting on its own ends the role with why: never a bridge
    // that looks alive with no door.
    await Promise.race([stoppedBy(signal), stoppedAccepting(door, store, wayIn, toolProxy)]);
  } finally {
    carrying.abort();
    await carriers;
  }
  return 0;
}

/**
 * The agent's own runner, started again when it ends unbidden; one that cannot start is logged,
 * the bridge carrying on without it.
 */
async function startRunnerOf(
  paths: LinkPaths,
  settings: AgentSettings,
  named: string | undefined,
): Promise<AsyncDisposable> {
  try {
    const zone = await agentTimeZone(Deno.env, named, layoutOf(paths, settings).specToml);
    return await keepAgentRunner(paths, {
      id: settings.id,
      zone,
      wayIn: sendSocketPath(paths, settings.id),
    });
  } catch (err) {
    log.error("Cannot start the agent's scheduler runner: no job fires", { agent: settings.id, error: err });
    return { [Symbol.asyncDispose]: () => Promise.resolve() };
  }
}

/**
 * `wake = "address"` (SCH-5): no runner sits on the agent; the machine that wakes it reads when its
 * next job is due (`lnk agent schedule next`) and fires them then (`lnk agent schedule run`).
 */
function noRunner(settings: AgentSettings): AsyncDisposable {
  log.info("No scheduler runner: the machine fires the agent's jobs (wake = address)", {
    agent: settings.id,
  });
  return { [Symbol.asyncDispose]: () => Promise.resolve() };
}

function stoppedBy(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** The agent started by this bridge itself; a failed start says the error it failed with. */
function starterFor(
  agent: AgentSettings,
  where: { paths: LinkPaths; socket: string; toolProxy: ToolProxySeat },
): InBridgeStarter {
  const ctx = agentContext(Deno.env, { home: where.paths.home });
  return inBridgeStarter(ctx, agent, { socket: where.socket, toolProxy: where.toolProxy });
}
