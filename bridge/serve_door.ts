import { type Clock, closeQuietly, LinkError, logger, SYSTEM_CLOCK, writeAll } from "../core/base/mod.ts";
import { answerUnavailable } from "./answer_unavailable.ts";
import { type HttpFraming, trackHttpFraming } from "./http_framing.ts";

const log = logger("door");

/** Whether the agent behind the door is answering, as the door sees it (PRC-10). */
export interface DoorActivity {
  /** An answer is still coming on some connection, or a connection waits for the agent to wake. */
  busy: boolean;
  /** Connections open through the door now. */
  connections: number;
  /** When the last byte passed either way, or a connection opened (clock ms). */
  lastTrafficAt: number;
}

/** The agent's door: its TCP port on the loopback, relayed to its unix socket. */
export interface ServeDoorOptions {
  /** The agent's port (0 picks one, for tests). */
  port: number;
  hostname?: "127.0.0.1";
  /**
   * The unix socket to relay this connection to; may wake the agent first, and throws when it
   * cannot. The signal aborts when the door stops.
   */
  target: (signal: AbortSignal) => Promise<string>;
  /** Called each time `busy` changes, and when a connection opens or closes. */
  onActivity?: (activity: DoorActivity) => void;
  clock?: Clock;
  signal?: AbortSignal;
}

/** A running door. */
export interface Door extends AsyncDisposable {
  readonly hostname: string;
  readonly port: number;
  /** What the door sees now. */
  readonly activity: DoorActivity;
  /** Stops listening and hangs up every connection. */
  close(): Promise<void>;
}

/**
 * Serves the agent's door (U-36): relays each connection byte for byte to the agent's unix
 * socket, resolved per connection so the caller can wake the agent first, and tells when an
 * answer is still coming from the framing alone (PRC-11).
 */
export function serveDoor(options: ServeDoorOptions): Door {
  let listener: Deno.TcpListener;
  try {
    listener = Deno.listen({ hostname: options.hostname ?? "127.0.0.1", port: options.port });
  } catch (err) {
    if (!(err instanceof Deno.errors.AddrInUse)) throw err;
    throw new LinkError("PORT_UNAVAILABLE", `Cannot open the agent's door: port ${options.port} is taken`, {
      hint: "Stop what listens on that port, or give the agent another port, then start it again",
      cause: err,
    });
  }
  return new RunningDoor(listener, options);
}

class RunningDoor implements Door {
  readonly hostname: string;
  readonly port: number;
  #listener: Deno.TcpListener;
  #options: ServeDoorOptions;
  #clock: Clock;
  #stop = new AbortController();
  #conns = new Set<Deno.Conn>();
  #upstreams = new Set<Deno.Conn>();
  #tasks = new Set<Promise<void>>();
  #trackers = new Set<HttpFraming>();
  #waking = 0;
  #busy = false;
  #lastTrafficAt: number;
  #accepting: Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(listener: Deno.TcpListener, options: ServeDoorOptions) {
    this.#listener = listener;
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#lastTrafficAt = this.#clock.now();
    this.hostname = listener.addr.hostname;
    this.port = listener.addr.port;
    this.#accepting = this.#accept();
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  get activity(): DoorActivity {
    return { busy: this.#busy, connections: this.#conns.size, lastTrafficAt: this.#lastTrafficAt };
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        conn.setNoDelay(true); // Nagle would hold each streamed piece of an answer for the caller's ACK
        this.#conns.add(conn);
        const task = this.#serve(conn)
          .catch((err) => log.debug("Door connection ended", { err }))
          .finally(() => {
            closeQuietly(conn);
            this.#conns.delete(conn);
            this.#tasks.delete(task);
            this.#changed(true);
          });
        this.#tasks.add(task);
      }
    } catch (err) {
      if (!this.#stop.signal.aborted) log.error("Door stopped accepting", { err });
    }
  }

  async #serve(conn: Deno.Conn): Promise<void> {
    this.#lastTrafficAt = this.#clock.now();
    this.#waking++;
    this.#changed(true);
    let upstream: Deno.Conn;
    try {
      upstream = await this.#reach();
    } catch (err) {
      this.#waking--;
      this.#changed(false);
      if (this.#stop.signal.aborted) return;
      return await answerUnavailable(conn, err, this.#clock);
    }
    this.#waking--;
    if (this.#stop.signal.aborted) return closeQuietly(upstream);
    this.#upstreams.add(upstream);
    const tracker = trackHttpFraming();
    this.#trackers.add(tracker);
    this.#changed(false);
    try {
      // carries: the door relays HTTP bytes unread; the tracker sees only their framing.
      await Promise.all([
        this.#pump(conn, upstream, (bytes) => tracker.fromClient(bytes), () => {}),
        this.#pump(upstream, conn, (bytes) => tracker.fromServer(bytes), () => tracker.serverEnded()),
      ]);
    } finally {
      this.#trackers.delete(tracker);
      closeQuietly(upstream);
      this.#upstreams.delete(upstream);
    }
  }

  async #reach(): Promise<Deno.Conn> {
    const signal = this.#stop.signal;
    const path = await new Promise<string>((resolve, reject) => {
      const onStop = () =>
        reject(new LinkError("AGENT_NOT_RUNNING", "Cannot reach the agent: its door is closing"));
      signal.addEventListener("abort", onStop, { once: true });
      this.#options.target(signal).then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", onStop)
      );
    });
    try {
      return await Deno.connect({ transport: "unix", path });
    } catch (err) {
      throw new LinkError("AGENT_NOT_RUNNING", "Cannot reach the agent: nothing answers at its socket", {
        cause: err,
      });
    }
  }

  /** Copies one direction, telling the tracker first; an end is passed on as a half close. */
  async #pump(
    from: Deno.Conn,
    to: Deno.Conn,
    observe: (bytes: Uint8Array) => void,
    ended: () => void,
  ): Promise<void> {
    const buf = new Uint8Array(32 * 1024);
    try {
      for (;;) {
        const n = await from.read(buf);
        if (n === null) break;
        const bytes = buf.subarray(0, n);
        this.#lastTrafficAt = this.#clock.now();
        observe(bytes);
        this.#changed(false);
        await writeAll(to, bytes);
      }
      ended();
      this.#changed(false);
      await to.closeWrite().catch(() => {});
    } catch {
      ended();
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  #changed(always: boolean): void {
    const busy = this.#waking > 0 || [...this.#trackers].some((t) => t.busy);
    if (busy === this.#busy && !always) return;
    this.#busy = busy;
    this.#options.onActivity?.(this.activity);
  }

  close(): Promise<void> {
    this.#closing ??= this.#shut();
    return this.#closing;
  }

  async #shut(): Promise<void> {
    this.#stop.abort();
    closeQuietly(this.#listener);
    for (const conn of [...this.#conns, ...this.#upstreams]) closeQuietly(conn);
    await this.#accepting;
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
