import { join } from "node:path";
import { type AgentKey, errorFromAnswer, LinkError, lockFile, logger } from "../../base/mod.ts";
import { startSandboxProxy } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { pickBackend } from "../services/mod.ts";
import { waitForSocket } from "../endpoint_socket.ts";
import { harnessInputEntry, type HarnessProcess } from "./harness_process.ts";
import {
  type LaunchSandboxedOptions,
  type SandboxedHarnessPlan,
  toolProxyInput,
} from "./launch_sandboxed.ts";
import { modelRoute } from "./model_route.ts";
import type { SharedHarnessState } from "../sharing/mod.ts";
import {
  sharedHarnessNames,
  sharedHarnessService,
  sharedHarnessSocketPath,
} from "../sharing/shared_harness_service.ts";

const log = logger("agent");

/**
 * Starts a planned agent on its owner's shared harness (PRC-2): its own proxy with a new secret
 * (SBX-19) on its own port inside, then the agent handed to the shared harness (started first
 * when none runs, a service of its own: PRC-16), which serves it on the agent's endpoint socket.
 * The answer to the join stays open while the agent is served; stop() lets the agent go, and the
 * shared harness ending says the harness died, as a sandbox of its own exiting does.
 */
export async function launchOnSharedHarness(
  ctx: AgentContext,
  planned: SandboxedHarnessPlan,
  key: AgentKey,
  options: LaunchSandboxedOptions & { socket: string },
): Promise<HarnessProcess> {
  const { agent } = planned;
  await using stack = new AsyncDisposableStack();
  await Deno.mkdir(planned.netDir, { recursive: true, mode: 0o700 });
  const proxy = stack.use(
    await startSandboxProxy(planned.netDir, planned.proxy!.spec, {
      keys: planned.proxy!.keys,
      signal: options.signal,
      upstream: options.upstream,
      insidePort: agent.ports.endpoint,
    }),
  );
  const route = planned.model && modelRoute(planned.model.resolved, { proxy, wired: planned.model.wired });
  const entry = harnessInputEntry(agent, key, {
    paths: planned.paths,
    spec: planned.spec,
    netDir: planned.insideNet,
    more: {
      ...planned.input,
      model: route?.model,
      proxy: { url: proxy.root },
      runEnv: { ...proxy.env },
      // Its own tool proxy and this start's secret (SBX-18, SBX-19), its tools listed outside
      // (PRC-13): the shared harness reaches the agent's own socket in its .net folder directly.
      toolProxy: planned.toolProxy &&
        await toolProxyInput({ ...planned.toolProxy, relayed: false }, planned.insideNet, agent.id),
    },
  });
  const request = {
    agent: entry,
    socket: join(planned.insideNet, "endpoint.sock"),
    proxy: { port: agent.ports.endpoint, socket: join(planned.insideNet, "proxy.sock") },
  };
  const joined = await joinShared(ctx, agent.owner, request, options.signal);
  const owned = stack.move();
  let stopped = false;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      stopped = true;
      await callShared(ctx, agent.owner, "/leave", { agent: agent.id }).catch(() => {});
      joined.abort.abort();
      await owned.disposeAsync();
    })();
  const status = joined.ended.then((): Deno.CommandStatus => ({
    success: stopped,
    code: stopped ? 0 : 1,
    signal: null,
  }));
  log.info("Agent joined its owner's shared harness", { agent: agent.id, pid: joined.pid });
  return {
    pid: joined.pid,
    status,
    sandboxed: true,
    proxied: true,
    shared: true,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

interface Joined {
  readonly pid: number;
  /** Resolves when the shared harness stops serving the agent (its answer ended). */
  readonly ended: Promise<void>;
  readonly abort: AbortController;
}

/** Joins the shared harness, starting it first when nothing answers at its socket or it is ending. */
async function joinShared(
  ctx: AgentContext,
  owner: string,
  request: unknown,
  signal?: AbortSignal,
): Promise<Joined> {
  for (let attempt = 1;; attempt++) {
    await ensureSharedHarness(ctx, owner);
    const abort = new AbortController();
    const client = Deno.createHttpClient({
      proxy: { transport: "unix", path: sharedHarnessSocketPath(ctx.paths, owner) },
    });
    const res = await fetch("http://harness/join", {
      client,
      method: "POST",
      body: JSON.stringify(request),
      headers: { "content-type": "application/json" },
      signal: signal ? AbortSignal.any([signal, abort.signal]) : abort.signal,
    }).catch(() => undefined);
    if (!res) {
      client.close();
      if (attempt < 3) continue;
      throw new LinkError("SERVICE_FAILED", "Cannot reach the shared harness", {
        hint: "Run `lnk agent logs`",
      });
    }
    if (!res.ok) {
      const error = errorFromAnswer(res.status, await res.text());
      client.close();
      if (error.message === "The shared harness is ending" && attempt < 3) continue;
      throw error;
    }
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let first = "";
    while (!first.includes("\n")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      first += chunk.value;
    }
    const { pid } = JSON.parse(first.split("\n")[0]!) as { pid: number };
    const ended = (async () => {
      try {
        while (!(await reader.read()).done) { /* nothing more is said */ }
      } catch { /* aborted, or the harness went */ }
      client.close();
    })();
    return { pid, ended, abort };
  }
}

/** Starts the owner's shared harness service unless one answers and is not ending; one start at a time. */
async function ensureSharedHarness(ctx: AgentContext, owner: string): Promise<void> {
  await Deno.mkdir(ctx.paths.run, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(join(ctx.paths.run, `harness-${owner}.start.lock`));
  const seen = await callShared(ctx, owner, "/state").catch(() => undefined) as
    | SharedHarnessState
    | undefined;
  if (seen && !seen.ending) return;
  const backend = await pickBackend(ctx.paths, ctx.env);
  await backend.stop(sharedHarnessNames(owner));
  const started = await backend.start(sharedHarnessService(ctx, owner));
  const socket = sharedHarnessSocketPath(ctx.paths, owner);
  // Service managers return before the role's ready line; the detached backend after it.
  if (started.ready.socket !== socket) await waitForSocket(socket);
}

/** What the owner's shared harness is, or does, at a route; throws when nothing answers. */
export async function callShared(
  ctx: AgentContext,
  owner: string,
  route: string,
  body?: unknown,
): Promise<unknown> {
  const client = Deno.createHttpClient({
    proxy: { transport: "unix", path: sharedHarnessSocketPath(ctx.paths, owner) },
  });
  try {
    const res = await fetch(`http://harness${route}`, {
      client,
      method: body === undefined ? "GET" : "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return await res.json();
  } finally {
    client.close();
  }
}
