import { joinPath, LinkError, type LinkPaths, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import { KNOWN } from "../adapters/mod.ts";
import { type AgentSettings, layoutOf } from "../agent/mod.ts";
import { type ListedToolServer, TOOL_SOCKET, type ToolProxySeat } from "../agent/launch/mod.ts";
import {
  DailyCount,
  JobStore,
  SCHEDULER_SERVER,
  schedulerToolServer,
  systemTimeZone,
} from "../scheduler/mod.ts";
import type { Spec } from "../spec/mod.ts";
import { serveToolProxy, type ToolProxy, type ToolServerFactory } from "../tool_proxy/mod.ts";
import { MEMORY_SERVER } from "../memory/tools/mod.ts";
import type { MemorySeat } from "./memory_seat.ts";

/**
 * The agent's tool proxy (SBX-18) on `.net/<id>/tools.sock`, as its bridge holds it: the seat its
 * starter takes (a new secret at each start of the sandbox, SBX-19) from the bridge's start, and
 * the server itself once the bridge holds the agent's door, so a bridge that finds another holding
 * the port never takes that one's socket. It serves Link Scheduler's tools for this agent alone:
 * its jobs in `Agent/schedule/`, its zone (`[run] time_zone`, else the machine's), its caps
 * (`[tool.scheduler]`), and whether its harness narrows (SCH-8), fixed for the bridge's run as the
 * spec is. With memory on (MEM-1) it serves Link Memory's tools too, as `memory`: the list is
 * fixed for the bridge's run, so the tools stay the same at every turn.
 */
export class AgentTools implements ToolProxySeat {
  readonly socket: string;
  readonly servers: readonly string[];
  #paths: LinkPaths;
  #agent: AgentSettings;
  #spec: Spec;
  #memory: MemorySeat | undefined;
  #proxy: ToolProxy | undefined;

  constructor(paths: LinkPaths, agent: AgentSettings, spec: Spec, options: { memory?: MemorySeat } = {}) {
    this.#paths = paths;
    this.#agent = agent;
    this.#spec = spec;
    this.#memory = options.memory;
    this.servers = options.memory ? [SCHEDULER_SERVER, MEMORY_SERVER] : [SCHEDULER_SERVER];
    this.socket = joinPath(paths.net(agent.id), TOOL_SOCKET);
  }

  /** Serves the tool proxy; the bridge closes what it returns. */
  async serve(options: { signal?: AbortSignal } = {}): Promise<ToolProxy> {
    const agent = this.#agent;
    const paths = this.#paths;
    const schedule = joinPath(layoutOf(paths, agent).agent, "schedule");
    const zone = this.#spec.run.time_zone ?? await systemTimeZone(Deno.env);
    const jobs = new JobStore(schedule);
    const count = new DailyCount(schedule, zone);
    const scheduler = this.#spec.tool.scheduler;
    const caps = { hops: scheduler.hops, perDay: scheduler.per_day };
    const narrows = KNOWN[agent.harness]?.tools === true;
    await Deno.mkdir(paths.net(agent.id), { recursive: true, mode: 0o700 });
    const memory = this.#memory;
    const more: Record<string, ToolServerFactory> = memory ? { [MEMORY_SERVER]: () => memory.server() } : {};
    this.#proxy = await serveToolProxy({
      path: this.socket,
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
        ...more,
      },
    });
    return this.#proxy;
  }

  /** Its servers' tools, listed in this process once the proxy is served (PRC-13). */
  async listTools(): Promise<readonly ListedToolServer[]> {
    if (!this.#proxy) throw this.#notServed();
    // Read from the servers' JSON answers: every schema is JSON.
    return await this.#proxy.list() as readonly ListedToolServer[];
  }

  newSecret(): Secret {
    if (!this.#proxy) throw this.#notServed();
    return this.#proxy.newSecret();
  }

  #notServed(): LinkError {
    return new LinkError(
      "SERVICE_FAILED",
      `Cannot start agent "${this.#agent.name}": its tool proxy is not served yet`,
    );
  }
}
