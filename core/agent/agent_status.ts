import type { AgentContext } from "./context.ts";
import type { AgentSettings } from "./settings.ts";
import { pickBackend, serviceNames, type ServiceState } from "./services/mod.ts";
import { agentLinesOf, sharedBridgeLogs, sharedCarriage } from "./roles/shared/mod.ts";
import { sharedHarnessNames } from "./roles/shared_harness/shared_harness_service.ts";
import { harnessState } from "./roles/harness_record.ts";

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
  /** Why it died, from the log, when it did. */
  reason?: string;
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
  };
  if (harness?.shared && state === "running") status.sharedHarness = true;
  if (shared?.lost) status.reason = shared.lost;
  else if (state === "died" && harness?.service.died && !bridge.died) {
    status.reason = `its harness stopped unbidden${harness.reason ? `: ${harness.reason}` : ""}`;
  } else if (state === "died") {
    const which = agentService.died ? "agent" : "bridge";
    const log = await backend.logs(serviceNames(which, agent.id), 1);
    status.reason = `its ${which} service stopped unbidden${log ? `: ${lastMessage(log)}` : ""}`;
  }
  return status;
}

function lastMessage(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; error?: { message?: string } | string };
    const detail = typeof entry.error === "string" ? entry.error : entry.error?.message;
    return [entry.msg, detail].filter(Boolean).join(": ");
  } catch {
    return line.slice(0, 200);
  }
}

/** The logs of an agent's services, each line labelled with its service. */
export async function agentLogs(ctx: AgentContext, agent: AgentSettings, lines = 200): Promise<string> {
  const backend = await pickBackend(ctx.paths, ctx.env);
  const parts: string[] = [];
  for (const role of ["bridge", "agent"] as const) {
    const text = await backend.logs(serviceNames(role, agent.id), lines);
    if (text) parts.push(text.split("\n").map((l) => `${role}: ${l}`).join("\n"));
  }
  const shared = await sharedBridgeLogs(ctx, agent.id, lines);
  if (shared) parts.push(shared.split("\n").map((l) => `shared bridge: ${l}`).join("\n"));
  // Its owner's shared harness, where its turns ran while it served it (PRC-2).
  const harness = await agentLinesOf(ctx, sharedHarnessNames(agent.owner), agent.id, lines).catch(() => "");
  if (harness) parts.push(harness.split("\n").map((l) => `shared harness: ${l}`).join("\n"));
  return parts.join("\n");
}
