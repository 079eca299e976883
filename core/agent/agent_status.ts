import { toLinkError } from "../base/mod.ts";
import { loadAgentConfig } from "./agent_config.ts";
import type { AgentContext } from "./context.ts";
import { diedReason } from "./died_reason.ts";
import type { AgentSettings } from "./settings.ts";
import { pickBackend, serviceNames, type ServiceState } from "./services/mod.ts";
import { sharedCarriage } from "./sharing/mod.ts";
import { harnessState } from "./harness_record.ts";
import { type ConnectionState, readConnectionState } from "./connection_state.ts";

/**
 * running: the bridge up and the agent awake; asleep: the bridge's door up, the agent stopped while
 * idle; died: the bridge, or the agent's harness, is gone unbidden.
 */
export type AgentState = "running" | "asleep" | "stopped" | "died";

/** What `lnk agent status` says of one agent. */
export interface AgentStatus {
  name: string;
  id: string;
  owner: string;
  harness: string;
  state: AgentState;
  sandbox: "on" | "off";
  /** Awake on its owner's shared harness, one process serving its owner's agents (PRC-2). */
  sharedHarness?: boolean;
  /** Which bridge carries it: its own, or the one every agent shares (`shared_bridge`, PRC-6). */
  bridge: "own" | "shared";
  ports: { endpoint: number; block: number };
  /** The agent (the harness its bridge runs, or an agent service) and its bridge. */
  services: { agent: ServiceState; bridge: ServiceState };
  /** Why it died, when it did: its service's final error, or that it was killed. */
  reason?: string;
  /** Its spec.toml or sandbox.toml cannot be read: the next start fails so (the file, line, hint). */
  config?: { code: string; message: string; hint?: string };
  /**
   * Each connection in its settings (`bots`) and where it stands while the bridge carries it
   * (polling, connected, reconnecting, failed with why); "stopped" when nothing carries it.
   */
  connections: Record<
    string,
    { state: ConnectionState["state"] | "stopped"; why?: string; since?: string }
  >;
}

/** The agent's state, looking only at this machine (MDL-2): its services, ports and sandbox setting. */
export async function agentStatus(ctx: AgentContext, agent: AgentSettings): Promise<AgentStatus> {
  const backend = await pickBackend(ctx.paths, ctx.env);
  const service = await backend.status(serviceNames("agent", agent.id));
  const shared = await sharedCarriage(ctx.paths, agent.id);
  const bridge = shared?.service ?? await backend.status(serviceNames("bridge", agent.id));
  // The harness the bridge runs itself (its record), else an agent service of its own.
  const harness = bridge.running ? await harnessState(ctx.paths, agent.id, bridge.pid) : undefined;
  const agentService = harness?.service ?? service;
  const state: AgentState = shared?.lost || agentService.died || bridge.died
    ? "died"
    : agentService.running && bridge.running
    ? "running"
    : bridge.running
    ? "asleep"
    : "stopped";
  const status: AgentStatus = {
    name: agent.name,
    id: agent.id,
    owner: agent.owner,
    harness: agent.harness,
    state,
    sandbox: agent.sandbox.enabled ? "on" : "off",
    bridge: shared ? "shared" : "own",
    ports: agent.ports,
    services: { agent: agentService, bridge },
    connections: await connectionsOf(ctx, agent, bridge.running),
  };
  if (harness?.shared && state === "running") status.sharedHarness = true;
  if (shared?.lost) status.reason = shared.lost;
  else if (state === "died" && harness?.service.died && !bridge.died) {
    status.reason = `its harness stopped unbidden${harness.reason ? `: ${harness.reason}` : ""}`;
  } else if (state === "died") {
    const which = agentService.died ? "agent" : "bridge";
    const gone = which === "agent" ? agentService : bridge;
    const log = await backend.logs(serviceNames(which, agent.id), 1);
    status.reason = diedReason(log, which, gone.started ? Date.parse(gone.started) : undefined);
  }
  const config = await configProblem(ctx, agent);
  if (config) status.config = config;
  return status;
}

/** Each connection of the agent, and what its carrier last said while the bridge runs. */
async function connectionsOf(
  ctx: AgentContext,
  agent: AgentSettings,
  bridgeRunning: boolean,
): Promise<AgentStatus["connections"]> {
  const connections: AgentStatus["connections"] = {};
  for (const name of Object.keys(agent.bots).sort()) {
    const said = bridgeRunning ? await readConnectionState(ctx.paths, agent.id, name) : undefined;
    connections[name] = said
      ? {
        state: said.state,
        ...(said.why ? { why: said.why } : {}),
        ...(said.since ? { since: said.since } : {}),
      }
      : { state: "stopped" };
  }
  return connections;
}

/** What is wrong with the agent's spec or sandbox file, said as the start would say it. */
async function configProblem(ctx: AgentContext, agent: AgentSettings): Promise<AgentStatus["config"]> {
  try {
    await loadAgentConfig(ctx.paths, agent);
    return undefined;
  } catch (err) {
    const error = toLinkError(err);
    return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
}
