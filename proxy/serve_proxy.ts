import { dirname } from "node:path";
import { z } from "zod";
import { closeQuietly, LinkError, logger, type Secret } from "../core/base/mod.ts";
import type { Resolve } from "./check_target.ts";
import { type ByteConn, ConnReader, sendPromptly } from "./conn_reader.ts";
import { handleRequest, type RequestContext, writeRefusal } from "./handle_request.ts";
import { parseRequestHead, type RequestHead } from "./http_head.ts";
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
  /** Stops the proxy when aborted. */
  readonly signal?: AbortSignal;
}

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
  const handlers = new Set<Promise<void>>();
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
  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    return closing ??= (async () => {
      closeQuietly(listener);
      for (const conn of conns) closeQuietly(conn);
      await accepting;
      await Promise.allSettled([...handlers]);
      if (options.path) await Deno.remove(options.path).catch(() => {});
      log.info("Proxy stopped", { address: addr });
    })();
  }
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const handler = serveConnection(conn, context).finally(() => handlers.delete(handler));
        handlers.add(handler);
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.BadResource)) log.error("The proxy stopped accepting", { error: err });
    }
  })();
  const finished = accepting.then(() => close());
  options.signal?.addEventListener("abort", () => void close(), { once: true });
  if (options.signal?.aborted) void close();
  log.info("Proxy listening", { address: addr });
  return { addr, port, finished, close, [Symbol.asyncDispose]: close };
}

async function serveConnection(conn: Deno.Conn, context: RequestContext): Promise<void> {
  const forget = context.track(conn);
  sendPromptly(conn);
  const reader = new ConnReader(conn);
  try {
    while (true) {
      let request: RequestHead;
      try {
        const text = await reader.readHead();
        if (text === null) return;
        request = parseRequestHead(text);
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
