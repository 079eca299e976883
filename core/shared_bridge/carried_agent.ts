import { join } from "node:path";
import { type Clock, LinkError, logger, parseDuration } from "../base/mod.ts";
import { isTimeZone, systemTimeZone } from "../scheduler/mod.ts";
import { loadAgentConfig } from "../agent/mod.ts";
import { AgentTools, MemorySeat, serveStoreBridge, serveWayIn, storeDriverFor } from "../agent_bridge/mod.ts";
import type { AgentContext } from "../agent/mod.ts";
import { readKey } from "../agent/mod.ts";
import { layoutOf } from "../agent/mod.ts";
import { type AgentSettings, loadSettings } from "../agent/mod.ts";
import {
  type AgentDoor,
  askHarnessBusy,
  openAgentDoor,
  runConnectionBridges,
  stoppedAccepting,
} from "../agent_bridge/mod.ts";
import {
  type AgentStarter,
  type InBridgeStarter,
  inBridgeStarter,
  type ToolProxySeat,
} from "../agent/launch/mod.ts";
import { listenForWebhooks, type WebhookListener } from "../webhooks/mod.ts";

const log = logger("bridges");

/** One agent as the shared bridge carries it: its door, store bridge and way in, each with its own key. */
export interface CarriedAgent extends AsyncDisposable {
  readonly id: string;
  /** The token of the start the bridge carries (bridges.json). */
  readonly start: string;
  readonly settings: AgentSettings;
  readonly door: AgentDoor;
  /** Its time zone: `[run] time_zone`, or the machine's. */
  readonly zone: string;
  /** `[tool.scheduler] wake`: "address" keeps it off the runners (SCH-5). */
  readonly wake: "runner" | "address";
  /** Its Config/spec.toml, watched for a change of zone. */
  readonly specPath: string;
  /** Reads the spec again; says whether the zone or the wake changed. A spec that cannot be read keeps both. */
  refreshZone(): Promise<boolean>;
  /** Closes its door and bridges, then stops its agent service: the agent is off the bridge. */
  drop(): Promise<void>;
  /** Rejects with why when its door or one of its bridges stops accepting on its own. */
  readonly failed: Promise<never>;
}

/** What carrying an agent needs besides its ID. */
export interface CarryOptions {
  ctx: AgentContext;
  clock?: Clock;
  /** How the door starts the agent: in this bridge's process, as its own bridge does, unless told. */
  starter?: (agent: AgentSettings, socket: string) => Promise<AgentStarter>;
}

/**
 * Carries one agent on the shared bridge, exactly as its own bridge would (PRC-6): its door on its
 * port, waking it at a message and letting it sleep when idle, its store bridge and its way in,
 * each answering only proofs made with this agent's key (BRG-15). The door opens asleep. Throws
 * PORT_UNAVAILABLE when another program holds its port, AGENT_NOT_RUNNING when it has no key.
 */
export async function carryAgent(id: string, start: string, options: CarryOptions): Promise<CarriedAgent> {
  const { paths } = options.ctx;
  const settings = await loadSettings(paths, id);
  const specPath = layoutOf(paths, settings).specToml;
  const { spec } = await loadAgentConfig(paths, settings);
  let zone = await zoneOf(options.ctx, spec.run.time_zone, specPath);
  let wake = spec.tool.scheduler.wake;
  const key = await readKey(paths, id);
  if (!key) {
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot carry agent "${settings.name}": it has no key bound`, {
      hint: "Start it with `lnk agent start`",
    });
  }
  await Deno.mkdir(paths.net(id), { recursive: true, mode: 0o700 });
  const socket = join(paths.net(id), "endpoint.sock");
  // Link Memory (MEM-1), when on: a session at each wake, its tools, its embedding endpoint.
  const memory = spec.memory.on ? new MemorySeat(paths, settings, { spec, key }) : undefined;
  // Link's tools (SBX-18), served here; each start of the agent's sandbox makes its secret.
  const tools = new AgentTools(paths, settings, spec, { memory });
  const started = await (options.starter ?? ((a, s) => bridgeStarterFor(options.ctx, a, s, tools)))(
    settings,
    socket,
  );
  const starter = memory && "preload" in started ? memory.starter(started as InBridgeStarter) : started;
  const caller = { agentId: id, agentName: settings.name, key };
  const door = await openAgentDoor({
    agentId: id,
    port: settings.ports.endpoint,
    socket,
    starter,
    idleAfterMs: parseDuration(spec.run.idle_after),
    askHarness: () => askHarnessBusy(socket, caller),
    key,
    clock: options.clock,
    teams: { paths, agent: { id, name: settings.name, owner: settings.owner } },
  });
  const held: (AsyncDisposable & { finished: Promise<void> })[] = [door];
  // Its connections, each a `lnk connection bridge` child of this bridge, as its own bridge runs them.
  const carrying = new AbortController();
  let connections = Promise.resolve();
  let webhooks: WebhookListener | undefined;
  let released: Promise<void> | undefined;
  const release = () =>
    released ??= (async () => {
      carrying.abort();
      await connections;
      await webhooks?.[Symbol.asyncDispose]();
      for (const part of [...held].reverse()) await part[Symbol.asyncDispose]();
      await memory?.[Symbol.asyncDispose]();
    })();
  try {
    const served = { agent: { id, owner: settings.owner }, key, paths };
    held.push(await serveStoreBridge({ ...served, driver: storeDriverFor(paths, settings, spec) }));
    held.push(await serveWayIn(served));
    await memory?.serve();
    held.push(await tools.serve());
    // Its webhooks, on 127.0.0.1 only (WHK-1), as its own bridge listens for them.
    webhooks = await listenForWebhooks(paths, settings, { key });
    connections = runConnectionBridges(paths, settings, carrying.signal);
  } catch (err) {
    await release();
    throw err;
  }
  log.info("Door open", { agent: id, port: door.port, idle_after: spec.run.idle_after, zone });
  let dropping: Promise<void> | undefined;
  const drop = () =>
    dropping ??= (async () => {
      // The door's end stops the harness it runs; a starter told otherwise is stopped too.
      await release();
      await starter.stop();
      log.info("Agent off the shared bridge", { agent: id });
    })();
  return {
    id,
    start,
    settings,
    door,
    specPath,
    get zone() {
      return zone;
    },
    get wake() {
      return wake;
    },
    async refreshZone() {
      try {
        const { spec } = await loadAgentConfig(paths, settings);
        const next = await zoneOf(options.ctx, spec.run.time_zone, specPath);
        const woken = spec.tool.scheduler.wake;
        if (next === zone && woken === wake) return false;
        if (next !== zone) log.info("Agent's time zone changed", { agent: id, from: zone, to: next });
        if (woken !== wake) log.info("Agent's scheduler wake changed", { agent: id, from: wake, to: woken });
        zone = next;
        wake = woken;
        return true;
      } catch (err) {
        log.error("Cannot read the agent's spec again: its time zone stays", { agent: id, zone, error: err });
        return false;
      }
    },
    drop,
    failed: stoppedAccepting(...held),
    // The bridge stopping: the harness it runs ends with it, as with the agent's own bridge.
    [Symbol.asyncDispose]: () => dropping ?? release(),
  };
}

/**
 * The agent started by the shared bridge itself (PRC-13): its proxy and relays in this process, its
 * sandbox as this process's child, its start prepared ahead while it sleeps. A failed start says
 * the error it failed with.
 */
function bridgeStarterFor(
  ctx: AgentContext,
  agent: AgentSettings,
  socket: string,
  toolProxy: ToolProxySeat,
): Promise<AgentStarter> {
  const starter = inBridgeStarter(ctx, agent, { socket, toolProxy });
  void starter.preload();
  return Promise.resolve(starter);
}

async function zoneOf(ctx: AgentContext, named: string | undefined, specPath: string): Promise<string> {
  if (named === undefined) return await systemTimeZone(ctx.env);
  if (isTimeZone(named)) return named;
  throw new LinkError("CONFIG_INVALID", `Cannot schedule in time zone "${named}": it is not a known zone`, {
    hint: `Fix [run] time_zone in "${specPath}" (a name such as "Europe/Paris"), then start the agent again`,
  });
}
