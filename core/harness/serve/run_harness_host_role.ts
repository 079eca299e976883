import { announceReady, decodeKey, homeFrom, LinkPaths, logger, TextLineReader } from "../../base/mod.ts";
import { serveRelay } from "../../../sandbox/relay.ts";
import { openHarnessEndpoint } from "./harness_endpoint.ts";
import {
  HOST_EVENT_PREFIX,
  HostCommand,
  hostedPlaces,
  type HostEvent,
  type HostJoin,
} from "./host_protocol.ts";
import { loadServedAgent } from "./load_served_agent.ts";

const log = logger("harness");

/** One agent the host serves: what to stop and close when it leaves. */
interface Hosted {
  readonly stop: AbortController;
  readonly done: Promise<void>;
}

/**
 * `lnk harness host`: Link Harness as the shared harness's one process in its sandbox (PRC-2). Its
 * agents come and go while it runs: each `join` line on stdin (from the shared harness outside,
 * the only one holding its stdin, never a program inside) starts one agent's relay to its own
 * proxy on its own port, its endpoint on its own socket (a caller at one agent's door reaches that
 * agent alone), its store and tools over its own grants, whose commands see no other agent's
 * folders; a `leave` line stops it once its turns have settled. Each outcome is a line on stdout.
 */
export async function runHarnessHostRole(_args: string[], signal: AbortSignal): Promise<number> {
  const paths = new LinkPaths(homeFrom(Deno.env));
  const hosted = new Map<string, Hosted>();
  announceReady({ pid: Deno.pid });
  log.info("Shared harness listening for agents", { pid: Deno.pid });
  const lines = new TextLineReader(Deno.stdin.readable);
  const ended = new Promise<undefined>((resolve) =>
    signal.addEventListener("abort", () => resolve(undefined), { once: true })
  );
  try {
    for (;;) {
      const line = await Promise.race([lines.next(), ended]);
      if (line === undefined) break;
      if (!line.trim()) continue;
      const parsed = HostCommand.safeParse(parseJson(line));
      if (!parsed.success) {
        log.error("Shared harness got a line it cannot read", { error: parsed.error.message });
        continue;
      }
      const command = parsed.data;
      if ("leave" in command) {
        await leave(hosted, command.leave);
        say({ left: command.leave });
        continue;
      }
      await leave(hosted, command.join.agent.id);
      try {
        hosted.set(command.join.agent.id, await join(command.join, paths));
        say({ joined: command.join.agent.id });
      } catch (err) {
        log.error("Cannot serve an agent in the shared harness", {
          agent: command.join.agent.id,
          error: err,
        });
        say({ failed: command.join.agent.id, error: err instanceof Error ? err.message : String(err) });
      }
    }
  } finally {
    await Promise.all([...hosted.keys()].map((id) => leave(hosted, id)));
  }
  return 0;
}

/** Serves one agent until its controller aborts. */
async function join(request: HostJoin, paths: LinkPaths): Promise<Hosted> {
  const stop = new AbortController();
  await using stack = new AsyncDisposableStack();
  stack.defer(() => stop.abort());
  if (request.proxy) {
    stack.use(
      await serveRelay({ kind: "tcp-to-unix", port: request.proxy.port, socket: request.proxy.socket }),
    );
  }
  // Its commands' own HOME and TMPDIR: the others' are hidden from them (hideFromRun).
  const places = hostedPlaces(Deno.env.get("HOME") ?? "/tmp", request.agent.id);
  for (const dir of [places.home, places.tmp]) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const agent = {
    ...request.agent,
    runEnv: { ...request.agent.runEnv, HOME: places.home, TMPDIR: places.tmp },
  };
  const endpoint = stack.use(
    await openHarnessEndpoint({
      socket: request.socket,
      agents: [{ id: agent.id, name: agent.name, key: decodeKey(agent.key) }],
      signal: stop.signal,
    }),
  );
  const loaded = await loadServedAgent(agent, { paths, env: Deno.env });
  stack.defer(async () => {
    await loaded.runner?.[Symbol.asyncDispose]();
    await loaded.store[Symbol.asyncDispose]();
  });
  await endpoint.serve([loaded]);
  log.info("Shared harness serves an agent", { agent: agent.id });
  const owned = stack.move();
  const done = (async () => {
    await new Promise<void>((resolve) =>
      stop.signal.addEventListener("abort", () => resolve(), { once: true })
    );
    await owned.disposeAsync();
    await Deno.remove(request.socket).catch(() => {});
  })();
  return { stop, done };
}

async function leave(hosted: Map<string, Hosted>, id: string): Promise<void> {
  const agent = hosted.get(id);
  if (!agent) return;
  hosted.delete(id);
  agent.stop.abort();
  await agent.done;
  log.info("Shared harness let an agent go", { agent: id });
}

function say(event: HostEvent): void {
  Deno.stdout.writeSync(new TextEncoder().encode(`${HOST_EVENT_PREFIX}${JSON.stringify(event)}\n`));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
