import { joinPath, type LinkPaths, SYSTEM_CLOCK } from "../base/mod.ts";
import { KNOWN } from "../adapters/mod.ts";
import { type AgentSettings, layoutOf } from "../agent/mod.ts";
import { TOOL_SOCKET } from "../agent/launch/mod.ts";
import {
  DailyCount,
  JobStore,
  SCHEDULER_SERVER,
  schedulerToolServer,
  systemTimeZone,
} from "../scheduler/mod.ts";
import type { Spec } from "../spec/mod.ts";
import { serveToolProxy, type ToolProxy } from "../tool_proxy/mod.ts";

/**
 * The agent's tool proxy (SBX-18) on `.net/<id>/tools.sock`, serving Link Scheduler's tools for
 * this agent alone: its jobs in `Agent/schedule/`, its zone (`[run] time_zone`, else the
 * machine's), its caps (`[tool.scheduler]`), and whether its harness narrows (SCH-8), all fixed
 * for the bridge's run as the spec is.
 */
export async function serveAgentTools(
  paths: LinkPaths,
  agent: AgentSettings,
  spec: Spec,
  options: { signal?: AbortSignal } = {},
): Promise<ToolProxy> {
  const schedule = joinPath(layoutOf(paths, agent).agent, "schedule");
  const zone = spec.run.time_zone ?? await systemTimeZone(Deno.env);
  const jobs = new JobStore(schedule);
  const count = new DailyCount(schedule, zone);
  const caps = { hops: spec.tool.scheduler.hops, perDay: spec.tool.scheduler.per_day };
  const narrows = KNOWN[agent.harness]?.tools === true;
  await Deno.mkdir(paths.net(agent.id), { recursive: true, mode: 0o700 });
  return await serveToolProxy({
    path: joinPath(paths.net(agent.id), TOOL_SOCKET),
    agentId: agent.id,
    signal: options.signal,
    servers: {
      [SCHEDULER_SERVER]: () =>
        schedulerToolServer({
          agentId: agent.id,
          jobs,
          count,
          paths,
          zone,
          caps,
          narrows,
          clock: SYSTEM_CLOCK,
        }),
    },
  });
}
