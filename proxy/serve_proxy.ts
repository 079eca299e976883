import { dirname } from "node:path";
import { z } from "zod";
import {
  type Clock,
  closeQuietly,
  keepAccepting,
  LinkError,
  logger,
  type Secret,
  SYSTEM_CLOCK,
} from "../core/base/mod.ts";
import { ConnReader, type RequestHead } from "../http1/mod.ts";
import { type ByteConn, sendPromptly } from "./byte_conn.ts";
import type { Resolve } from "./check_target.ts";
import { handleRequest, type RequestContext, writeRefusal } from "./handle_request.ts";
import { HEAD_DEADLINE_MS, type HeadDeadlines, IDLE_DEADLINE_MS, readHeadInTime } from "./head_deadline.ts";
import type { ProxyKey } from "./proxy_key.ts";
import { ProxyPolicy } from "./proxy_policy.ts";
import { compileTargetRules } from "./target_rules.ts";
import { type Dial, dialTcp, resolveDns, type StartTls, startTls } from "./upstream.ts";

const log = logger("proxy");

/** Options for serveProxy. */
export interface ServeProxyOptions {
  /** The secret of this start (SBX-19): in the base-URL path, or the Proxy-Authorization password. */
  readonly secret: Secret;
  /** What may be reached; each field has its default (hosts "*"). */
  readonly policy?: z.input<typeof ProxyPolicy>;
  /** Keys the proxy adds for known providers (SBX-16). */
  readonly keys?: readonly ProxyKey[];
  /** Listen on this unix socket (production: `~/.lnk/agents/.net/<id>/proxy.sock`)... */
  readonly path?: string;
  /** ...or else on this port of 127.0.0.1 (0, the default, picks one). */
  readonly port?: number;
  /** The port callers name in Host (the relay's port in the sandbox), checked when given. */
  readonly hostPort?: number;
  /** Opens TCP to a checked address; defaults to Deno.connect. */
  readonly dial?: Dial;
  /** Resolves a granted name; defaults to Deno.resolveDns (A, then AAAA). */
  readonly resolve?: Resolve;
  /** Starts TLS to an https upstream on the dialled connection; defaults to Deno.startTls. */
  readonly startTls?: StartTls;
  /** This machine's interface networks ("addr/prefix"); defaults to Deno.networkInterfaces(). */
  readonly localNetworks?: readonly string[];
  /** This machine's names; defaults to Deno.hostname(). */
  readonly machineNames?: readonly string[];
  /** Callers' connections held at once (PROXY_MAX_CONNECTIONS unless told); one more is refused. */
  readonly maxConnections?: number;
  /** The deadlines of a request's head (HEAD_DEADLINE_MS and IDLE_DEADLINE_MS unless told). */
  readonly headDeadlines?: Partial<HeadDeadlines>;
  /** Time for the head deadlines and the waits after a failed accept; tests drive it. */
  readonly clock?: Clock;
  /** Stops the proxy when aborted. */
  readonly signal?: AbortSignal;
}

/**
 * Callers' connections one proxy holds at once. Each sandbox has a proxy of its own, so a sandbox
 * that opens more (2,000 half-sent requests) is refused at its own proxy, and every other agent's
 * proxy, even one in the same process, goes on.
 */
export const PROXY_MAX_CONNECTIONS = 256;

/** A running proxy. */
export interface ProxyServer extends AsyncDisposable {
  readonly addr: Deno.NetAddr | Deno.UnixAddr;
  /** The TCP port, when it listens on 127.0.0.1. */
  readonly port: number | undefined;
  /** Settles once the proxy has stopped. */
  readonly finished: Promise<void>;
  /** Stops listening, closes every connection, and waits for them. */
  close(): Promise<void>;
}

/**
 * Serves an agent's egress proxy (SBX-7..19): the base-URL form and the forward-proxy form
 * (absolute URIs and CONNECT), each with the secret, to the targets the policy allows.
 */
export async function serveProxy(options: ServeProxyOptions): Promise<ProxyServer> {
  const parsed = ProxyPolicy.safeParse(options.policy ?? {});
  if (!parsed.success) {
    throw new LinkError("CONFIG_INVALID", "Cannot start the proxy: its policy is not valid", {
      hint: `Fix these grants in the agent's Config/sandbox.toml:\n${z.prettifyError(parsed.error)}`,
    });
  }
  const rules = compileTargetRules(parsed.data, options);
  const listener: Deno.Listener = options.path
    ? await listenOnSocket(options.path)
    : Deno.listen({ hostname: "127.0.0.1", port: options.port ?? 0 });
  const addr = listener.addr as Deno.NetAddr | Deno.UnixAddr;
  const port = addr.transport === "tcp" ? addr.port : undefined;
  const conns = new Set<ByteConn>();
  const callers = new Set<ByteConn>();
  const handlers = new Set<Promise<void>>();
  const clock = options.clock ?? SYSTEM_CLOCK;
  const limits: ConnectionLimits = {
    clock,
    deadlines: {
      idleMs: options.headDeadlines?.idleMs ?? IDLE_DEADLINE_MS,
      headMs: options.headDeadlines?.headMs ?? HEAD_DEADLINE_MS,
    },
  };
  const maxConnections = options.maxConnections ?? PROXY_MAX_CONNECTIONS;
  const overCap = { cap: maxConnections, refused: 0 };
  const context: RequestContext = {
    secret: options.secret,
    rules,
    resolve: options.resolve ?? resolveDns,
    dial: options.dial ?? dialTcp,
    startTls: options.startTls ?? startTls,
    keys: options.keys ?? [],
    hostPort: options.hostPort ?? port,
    track(conn) {
      conns.add(conn);
      return () => conns.delete(conn);
    },
  };
  const stop = new AbortController();
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    return closing ??= (async () => {
      stop.abort();
      closeQuietly(listener);
      for (const conn of conns) closeQuietly(conn);
      await accepting.catch(() => {});
      await Promise.allSettled([...handlers]);
      if (options.path) await Deno.remove(options.path).catch(() => {});
      log.info("Proxy stopped", { address: addr });
    })();
  }
  const serve = (conn: Deno.Conn) => {
    const full = callers.size >= maxConnections;
    callers.add(conn);
    const handler = (full ? refuseOverCap(conn, overCap) : serveConnection(conn, context, limits))
      .finally(() => {
        callers.delete(conn);
        handlers.delete(handler);
      });
    handlers.add(handler);
  };
  // A failed accept (EMFILE) only pauses it.
  const accepting = keepAccepting(listener, { name: "proxy", clock, signal: stop.signal, onConn: serve });
  const finished = accepting.then(() => close(), async (err) => {
    log.error("The proxy stopped accepting", { error: err });
    await close();
    throw err;
  });
  finished.catch(() => {});
  options.signal?.addEventListener("abort", () => void close(), { once: true });
  if (options.signal?.aborted) void close();
  log.info("Proxy listening", { address: addr });
  return { addr, port, finished, close, [Symbol.asyncDispose]: close };
}

/** The time a caller's heads are given. */
interface ConnectionLimits {
  clock: Clock;
  deadlines: HeadDeadlines;
}

async function serveConnection(
  conn: Deno.Conn,
  context: RequestContext,
  limits: ConnectionLimits,
): Promise<void> {
  const forget = context.track(conn);
  sendPromptly(conn);
  const reader = new ConnReader(conn);
  try {
    while (true) {
      let request: RequestHead;
      try {
        const head = await readHeadInTime(reader, limits.clock, limits.deadlines);
        if (head === null || head === "idle") return;
        if (head === "late") {
          const seconds = limits.deadlines.headMs / 1000;
          const message = `Cannot read the request: its head did not arrive within ${seconds} s`;
          log.warn("Request refused", { reason: "head-timeout" });
          await writeRefusal(conn, { reason: "head-timeout", message }, true);
          return;
        }
        request = head;
      } catch (err) {
        const message = `Cannot read the request: ${(err as Error).message}`;
        await writeRefusal(conn, { reason: "bad-request", message }, true);
        return;
      }
      if (!(await handleRequest(reader, request, context))) return;
    }
  } catch (err) {
    log.debug("A connection ended early", { error: err });
  } finally {
    forget();
    closeQuietly(conn);
  }
}

/** Answers a caller past the cap at once, in the refusal's shape, and lets it go. */
async function refuseOverCap(conn: Deno.Conn, overCap: { cap: number; refused: number }): Promise<void> {
  // Once in a thousand in the log, not once per connection of a flood.
  if (overCap.refused++ % 1000 === 0) {
    log.warn("Request refused", {
      reason: "too-many-connections",
      cap: overCap.cap,
      refused: overCap.refused,
    });
  }
  const message =
    `Cannot take the connection: the sandbox holds ${overCap.cap} connections to its proxy already`;
  const hint = "Close some of the sandbox's connections, then try again";
  try {
    await writeRefusal(conn, { reason: "too-many-connections", message, hint }, true);
  } catch {
    // The caller went first.
  } finally {
    closeQuietly(conn);
  }
}

/** Listens on a unix socket, replacing a stale one but never a live proxy's. */
async function listenOnSocket(path: string): Promise<Deno.Listener> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const live = await Deno.connect({ transport: "unix", path }).then((c) => (c.close(), true), () => false);
  if (live) {
    throw new LinkError("SERVICE_FAILED", `Cannot start the proxy: another one listens on "${path}"`, {
      hint: "Stop the agent with `lnk agent stop`, then start it again",
    });
  }
  const stale = await Deno.lstat(path).catch(() => undefined);
  if (stale?.isSocket) await Deno.remove(path);
  else if (stale) {
    throw new LinkError("SERVICE_FAILED", `Cannot start the proxy: "${path}" exists and is no socket`, {
      hint: "Move that file away, then start the agent again",
    });
  }
  const listener = Deno.listen({ transport: "unix", path });
  await Deno.chmod(path, 0o600);
  return listener;
}
