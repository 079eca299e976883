import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { joinPath, LinkPaths, type Secret } from "../../core/base/mod.ts";
import { DailyCount, JobStore, SCHEDULER_SERVER, schedulerToolServer } from "../../core/scheduler/mod.ts";
import { serveToolProxy, type ToolProxy } from "../../core/tool_proxy/mod.ts";
import { FakeClock } from "./fake_clock.ts";

/** A tool proxy serving Link Scheduler for agent `a1` of a temporary home, and an SDK client's way to it. */
export interface SchedulerFixture extends AsyncDisposable {
  readonly home: string;
  readonly paths: LinkPaths;
  readonly proxy: ToolProxy;
  readonly jobs: JobStore;
  readonly schedule: string;
  readonly clock: FakeClock;
  /** How many requests its scheduler server answered, in process or over the socket. */
  served(): number;
  /** An MCP client of the proxy at `/_link/s/<secret>/scheduler`, closed with the fixture. */
  client(secret: Secret | string): Promise<Client>;
  /** A raw POST to the proxy's socket at `path`. */
  post(path: string, body: unknown): Promise<Response>;
}

/** Options of schedulerFixture: the agent's caps, zone, and whether its harness narrows. */
export interface SchedulerFixtureOptions {
  hops?: number;
  perDay?: number;
  zone?: string;
  narrows?: boolean;
  agentId?: string;
}

/** Starts the fixture: the real tool proxy on a unix socket, the real scheduler tools. */
export async function schedulerFixture(options: SchedulerFixtureOptions = {}): Promise<SchedulerFixture> {
  const home = await Deno.makeTempDir({ prefix: "lnk-tools-" });
  const paths = new LinkPaths(home);
  const agentId = options.agentId ?? "a1";
  const schedule = joinPath(home, "Agent", "schedule");
  const jobs = new JobStore(schedule);
  const zone = options.zone ?? "Europe/Berlin";
  const clock = new FakeClock(Date.UTC(2026, 11, 2, 9, 0, 0));
  await Deno.mkdir(paths.net(agentId), { recursive: true });
  const socket = joinPath(paths.net(agentId), "tools.sock");
  let served = 0;
  const proxy = await serveToolProxy({
    path: socket,
    agentId,
    servers: {
      [SCHEDULER_SERVER]: () => (served++,
        schedulerToolServer({
          agentId,
          jobs,
          count: new DailyCount(schedule, zone),
          paths,
          zone,
          caps: { hops: options.hops ?? 8, perDay: options.perDay ?? 100 },
          narrows: options.narrows ?? true,
          clock,
        })),
    },
  });
  const http = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
  const clients: Client[] = [];
  return {
    home,
    paths,
    proxy,
    jobs,
    schedule,
    clock,
    served: () => served,
    async client(secret) {
      const value = typeof secret === "string" ? secret : secret.reveal();
      const transport = new StreamableHTTPClientTransport(
        new URL(`http://127.0.0.1:3129/_link/s/${value}/${SCHEDULER_SERVER}`),
        { fetch: (input: string | URL, init?: RequestInit) => fetch(input, { ...init, client: http }) },
      );
      const client = new Client({ name: "test", version: "1" });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    post: (path, body) =>
      fetch(`http://127.0.0.1:3129${path}`, {
        client: http,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      }),
    async [Symbol.asyncDispose]() {
      for (const c of clients) await c.close().catch(() => {});
      http.close();
      await proxy.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}
