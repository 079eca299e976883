import { dirname } from "node:path";
import {
  type Clock,
  closeQuietly,
  keepAccepting,
  LinkError,
  type LinkPaths,
  logger,
  SYSTEM_CLOCK,
} from "../core/base/mod.ts";
import type { BridgeHandler } from "./bridge_call.ts";
import { type KeyFor, serveConnection, type SessionContext } from "./bridge_session.ts";
import { UnprovenPlaces } from "./unproven_places.ts";

const log = logger("bridge");

/**
 * Where and how a bridge is served: what the library decides, not the bridge. Bridges pass
 * this through, so the conformance test (tests/bridge) can run each of them the same way.
 */
export interface BridgeHosting {
  /** A unix socket path, in a folder only this user may enter (0700). */
  path?: string;
  /** Or a TCP port on 127.0.0.1 (0 picks one); for tests and callers of other users. */
  port?: number;
  /** Time for the proof deadline; tests drive it. */
  clock?: Clock;
  /** Unproven places per calling user (U-10: 4). */
  placesPerUser?: number;
  /** Unproven places per bridge (U-10: 256). */
  placesPerBridge?: number;
  /** Re-read the agent's key in this home's keyring at each call, refusing a stale key (BRG-14). */
  checkKeyring?: LinkPaths;
  /** Stops the bridge. */
  signal?: AbortSignal;
}

/** A bridge: its name, how many proven calls it holds, whom it serves, and what it does with a call. */
export interface ServeBridgeOptions extends BridgeHosting {
  /** The bridge's name, in logs and messages: "store", "send". */
  name: string;
  /** How many proven calls it holds at once; one more is answered `busy` (BRG-11). */
  cap: number;
  /** The key of an agent the bridge serves with that owner; undefined for any other (BRG-15). */
  keyFor: KeyFor;
  /** What the bridge does with a proven call. */
  handle: BridgeHandler;
  /** Longest body line of a typed call (default 1 MiB). */
  maxBodyBytes?: number;
}

/** Where a bridge listens. */
export type BridgeAddr = { path: string } | { hostname: string; port: number };

/** A running bridge. */
export interface BridgeServer extends AsyncDisposable {
  readonly name: string;
  readonly addr: BridgeAddr;
  /** Proven calls held now. */
  readonly calls: number;
  /** Unproven places held now. */
  readonly unproven: number;
  /**
   * Settles once the bridge has stopped: resolves when it was closed, rejects with why when it
   * stopped accepting on its own (its listener gone), so its role ends rather than look alive.
   */
  readonly finished: Promise<void>;
  /** Stops listening, hangs up every connection, and waits for its handlers. */
  close(): Promise<void>;
}

/** Serves a bridge (BRG-11): challenge, proof, deadline, places, cap, one error shape. */
export async function serveBridge(options: ServeBridgeOptions): Promise<BridgeServer> {
  if ((options.path === undefined) === (options.port === undefined)) {
    throw new LinkError(
      "INTERNAL",
      `Cannot serve bridge "${options.name}": give it a path or a port, not both`,
    );
  }
  if (!Number.isInteger(options.cap) || options.cap < 1) {
    throw new LinkError(
      "INTERNAL",
      `Cannot serve bridge "${options.name}": its cap must be a whole number above 0`,
    );
  }
  const listener = options.path === undefined
    ? Deno.listen({ hostname: "127.0.0.1", port: options.port ?? 0 })
    : await listenOnSocket(options.name, options.path);
  return new RunningBridge(listener, options);
}

async function listenOnSocket(name: string, path: string): Promise<Deno.Listener> {
  const folder = dirname(path);
  const info = await Deno.stat(folder);
  if (!info.isDirectory || (info.mode ?? 0) & 0o077 || (info.uid !== null && info.uid !== Deno.uid())) {
    throw new LinkError(
      "REFUSED",
      `Cannot serve bridge "${name}" at "${path}": its folder is open to other users`,
      {
        hint: `Run \`chmod 700 ${folder}\` as the folder's owner, then start the agent again`,
      },
    );
  }
  try {
    if ((await Deno.lstat(path)).isSocket) await Deno.remove(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const listener = Deno.listen({ transport: "unix", path });
  await Deno.chmod(path, 0o600);
  return listener;
}

class RunningBridge implements BridgeServer {
  readonly name: string;
  readonly addr: BridgeAddr;
  #listener: Deno.Listener;
  #ctx: SessionContext;
  #stop = new AbortController();
  #conns = new Set<Deno.Conn>();
  #tasks = new Set<Promise<void>>();
  #accepting: Promise<void>;
  #closing: Promise<void> | undefined;
  #path: string | undefined;
  readonly finished: Promise<void>;

  constructor(listener: Deno.Listener, options: ServeBridgeOptions) {
    this.name = options.name;
    this.#listener = listener;
    this.#path = options.path;
    const addr = listener.addr;
    this.addr = addr.transport === "unix"
      ? { path: options.path! }
      : { hostname: (addr as Deno.NetAddr).hostname, port: (addr as Deno.NetAddr).port };
    this.#ctx = {
      name: options.name,
      cap: options.cap,
      clock: options.clock ?? SYSTEM_CLOCK,
      keyFor: options.keyFor,
      checkKeyring: options.checkKeyring,
      handle: options.handle,
      places: new UnprovenPlaces({
        perUser: options.placesPerUser ?? 4,
        perBridge: options.placesPerBridge ?? 256,
      }),
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      calls: { count: 0 },
      signal: this.#stop.signal,
    };
    // A failed accept (EMFILE) only pauses it; each connection is admitted once its caller is known.
    this.#accepting = keepAccepting(listener, {
      name: `bridge "${this.name}"`,
      clock: this.#ctx.clock,
      signal: this.#stop.signal,
      onConn: (conn) => this.#serve(conn),
    });
    this.finished = this.#accepting.catch(async (err) => {
      log.error("Bridge stopped accepting", { bridge: this.name, err });
      await this.close();
      throw err;
    });
    this.finished.catch(() => {});
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
    log.debug("Bridge listening", { bridge: this.name, ...this.addr });
  }

  get calls(): number {
    return this.#ctx.calls.count;
  }

  get unproven(): number {
    return this.#ctx.places.size;
  }

  /** Serves one connection; resolves once it holds its place (or was turned away). */
  #serve(conn: Deno.Conn): Promise<void> {
    this.#conns.add(conn);
    const placed = Promise.withResolvers<void>();
    const task = serveConnection(conn, this.#ctx, placed.resolve)
      .catch((err) => log.debug("Bridge connection ended", { bridge: this.name, err }))
      .finally(() => {
        placed.resolve();
        closeQuietly(conn);
        this.#conns.delete(conn);
        this.#tasks.delete(task);
      });
    this.#tasks.add(task);
    return placed.promise;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shut();
    return this.#closing;
  }

  async #shut(): Promise<void> {
    this.#stop.abort();
    closeQuietly(this.#listener);
    for (const conn of this.#conns) closeQuietly(conn);
    await this.#accepting.catch(() => {});
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
    if (this.#path) await Deno.remove(this.#path).catch(() => {});
    log.debug("Bridge stopped", { bridge: this.name });
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
