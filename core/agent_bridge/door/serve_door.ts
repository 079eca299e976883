import {
  type Clock,
  closeQuietly,
  isOutOfDescriptors,
  keepAccepting,
  LinkError,
  logger,
  SYSTEM_CLOCK,
} from "../../base/mod.ts";
import { answerUnavailable, type DoorProver, refuseRequest } from "./answer_unavailable.ts";
import { headerValues } from "../../../http1/mod.ts";
import {
  peerOf,
  placesKey,
  PROOF_DEADLINE_MS,
  type UnprovenPlace,
  UnprovenPlaces,
} from "../../../link_bridge/mod.ts";
import { DOOR_PLACES, DOOR_PLACES_PER_USER, provesCaller } from "./door_proof.ts";
import { type HttpFraming, trackHttpFraming } from "./http_framing.ts";
import { ProofDeadline } from "./proof_deadline.ts";
import { pumpBytes, readOnce } from "./pump_bytes.ts";

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
  /** Called when a connection takes an unproven place, with how many are held now. */
  onPlaces?: (unproven: number) => void;
  /** Unproven places per calling user (DOOR_PLACES_PER_USER unless told). */
  placesPerUser?: number;
  /** Unproven places of the door (DOOR_PLACES unless told). */
  placesPerDoor?: number;
  /** The agent the door stands for: its 503 to a proof request proves it (see answerUnavailable). */
  prover?: DoorProver;
  /**
   * Judges the `Link-From` values of each request before the agent sees any byte of it (TEAM-7):
   * undefined takes it; a LinkError refuses it, answered to the caller in Link's one shape, and
   * the connection ends with the agent never asked. Called only for a request that has one.
   */
  checkFrom?: (from: readonly string[]) => Promise<LinkError | undefined>;
  /** Time for the proof deadline and the waits after a failed accept; tests drive it. */
  clock?: Clock;
  signal?: AbortSignal;
}

/** A running door. */
export interface Door extends AsyncDisposable {
  readonly hostname: string;
  readonly port: number;
  /** What the door sees now. */
  readonly activity: DoorActivity;
  /** Connections holding an unproven place now. */
  readonly unproven: number;
  /**
   * Settles once the door has stopped: resolves when it was closed, rejects with why when it
   * stopped accepting on its own (its listener gone), so its role ends rather than look alive.
   */
  readonly finished: Promise<void>;
  /** Stops listening and hangs up every connection. */
  close(): Promise<void>;
}

/**
 * Serves the agent's door (U-36): relays each connection byte for byte to the agent's unix
 * socket, resolved per connection so the caller can wake the agent first, and tells when an
 * answer is still coming from the framing alone (PRC-11).
 *
 * Until the agent has taken a connection's caller (a 2xx to a request other than its health and
 * its proof, which it answers anyone: see provesCaller), the connection is unproven: it holds one
 * of its calling user's few places, the user's newest taking the place of its own oldest
 * (BRG-13), and is cut when the caller's own time passes 5 s (BRG-12; the wake and the agent's
 * answers do not count). The door keeps accepting after any failed accept (EMFILE), so a flood
 * from one user never shuts it.
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
  #prover: DoorProver | undefined;
  #stop = new AbortController();
  #conns = new Set<Deno.Conn>();
  #upstreams = new Set<Deno.Conn>();
  #tasks = new Set<Promise<void>>();
  #trackers = new Set<HttpFraming>();
  #places: UnprovenPlaces;
  #waking = 0;
  #busy = false;
  #lastTrafficAt: number;
  #accepting: Promise<void>;
  #closing: Promise<void> | undefined;
  readonly finished: Promise<void>;

  constructor(listener: Deno.TcpListener, options: ServeDoorOptions) {
    this.#listener = listener;
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#prover = options.prover;
    this.#places = new UnprovenPlaces({
      perUser: options.placesPerUser ?? DOOR_PLACES_PER_USER,
      perBridge: options.placesPerDoor ?? DOOR_PLACES,
    });
    this.#lastTrafficAt = this.#clock.now();
    this.hostname = listener.addr.hostname;
    this.port = listener.addr.port;
    this.#accepting = keepAccepting(listener, {
      name: "door",
      clock: this.#clock,
      signal: this.#stop.signal,
      onConn: (conn) => this.#admit(conn),
    });
    this.finished = this.#accepting.catch(async (err) => {
      log.error("Door stopped accepting", { port: this.port, err });
      await this.close();
      throw err;
    });
    this.finished.catch(() => {});
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  get activity(): DoorActivity {
    return { busy: this.#busy, connections: this.#conns.size, lastTrafficAt: this.#lastTrafficAt };
  }

  get unproven(): number {
    return this.#places.size;
  }

  /** Takes one connection; resolves once it holds its place (or was turned away), so a flood waits its turn. */
  #admit(conn: Deno.TcpConn): Promise<void> {
    conn.setNoDelay(true); // Nagle would hold each streamed piece of an answer for the caller's ACK
    this.#conns.add(conn);
    const placed = Promise.withResolvers<void>();
    const task = this.#serve(conn, placed.resolve)
      .catch((err) => log.debug("Door connection ended", { err }))
      .finally(() => {
        placed.resolve();
        closeQuietly(conn);
        this.#conns.delete(conn);
        this.#tasks.delete(task);
        this.#changed(true);
      });
    this.#tasks.add(task);
    return placed.promise;
  }

  /**
   * Serves one connection under its place and deadline. Who called is looked up beside the relay,
   * not before it (reading /proc/net/tcp takes the kernel milliseconds): the place is taken once
   * known, unless the caller proved itself first.
   */
  async #serve(conn: Deno.Conn, placed: () => void): Promise<void> {
    const cut = new AbortController();
    cut.signal.addEventListener("abort", () => closeQuietly(conn), { once: true });
    let uid: number | undefined;
    const deadline = new ProofDeadline(this.#clock, PROOF_DEADLINE_MS, () => {
      log.debug("Door cut a connection that did not prove itself within 5 s", { uid });
      cut.abort();
    });
    let done = false;
    let place: UnprovenPlace | undefined;
    const proven = () => {
      done = true;
      place?.release();
      deadline.end();
    };
    const placing = peerOf(conn).then((peer) => {
      uid = peer.uid;
      if (done || cut.signal.aborted) return;
      place = this.#places.take(placesKey(peer), () => cut.abort());
      if (!place) {
        log.debug("Door turned a connection away: other users hold every unproven place", { uid });
        return cut.abort();
      }
      this.#options.onPlaces?.(this.#places.size);
    }).finally(placed);
    try {
      await this.#relay(conn, cut, { proven, deadline });
    } finally {
      proven();
      await placing;
    }
  }

  /**
   * Wakes the agent if need be, then relays the connection to it until either side ends. The
   * caller's first bytes are read meanwhile, so one that hangs up before the agent is reached (a
   * flood's) is let go at once, not held through the wake.
   */
  async #relay(
    conn: Deno.Conn,
    cut: AbortController,
    proof: { proven: () => void; deadline: ProofDeadline },
  ): Promise<void> {
    this.#lastTrafficAt = this.#clock.now();
    this.#waking++;
    this.#changed(true);
    const first = readOnce(conn);
    void first.then((bytes) => bytes === null && cut.abort());
    let upstream: Deno.Conn;
    try {
      upstream = await this.#reach(cut.signal);
    } catch (err) {
      this.#waking--;
      this.#changed(false);
      if (this.#stop.signal.aborted || cut.signal.aborted) return;
      return await answerUnavailable(conn, err, this.#clock, { first, prover: this.#prover });
    }
    this.#waking--;
    if (this.#stop.signal.aborted || cut.signal.aborted) return closeQuietly(upstream);
    cut.signal.addEventListener("abort", () => closeQuietly(upstream), { once: true });
    this.#upstreams.add(upstream);
    const froms: string[][] = [];
    const tracker = trackHttpFraming({
      answered: (status, request) => {
        if (provesCaller(status, request)) proof.proven();
      },
      request: (head) => {
        const from = headerValues(head.headers, "link-from");
        if (from.length > 0) froms.push(from);
      },
    });
    const watch = () => proof.deadline.set(!tracker.owed);
    const checkFrom = this.#options.checkFrom;
    const gate = checkFrom &&
      (async (): Promise<"pass" | "hold" | "refused"> => {
        for (const from of froms.splice(0)) {
          const refused = await checkFrom(from);
          if (refused) {
            log.warn("Door refused a message before the agent saw it", { from, code: refused.code });
            await refuseRequest(conn, refused, this.#clock, () => closeQuietly(upstream));
            return "refused";
          }
        }
        if (tracker.unread) {
          log.warn("Door cut a connection whose requests it cannot read, so cannot judge who sent them");
          return "refused";
        }
        return tracker.readingHead ? "hold" : "pass";
      });
    this.#trackers.add(tracker);
    this.#changed(false);
    watch();
    const settled = () => this.#changed(false);
    const traffic = () => {
      this.#lastTrafficAt = this.#clock.now();
      settled();
    };
    try {
      // carries: the door relays HTTP bytes unread; the tracker sees only their framing.
      await Promise.all([
        pumpBytes(conn, upstream, {
          traffic,
          settled,
          observe: (bytes) => (tracker.fromClient(bytes), watch()),
          first,
          gate,
          refused: () => cut.abort(),
        }),
        pumpBytes(upstream, conn, {
          traffic,
          settled,
          observe: (bytes) => (tracker.fromServer(bytes), watch()),
          ended: () => (tracker.serverEnded(), watch()),
        }),
      ]);
    } finally {
      this.#trackers.delete(tracker);
      closeQuietly(upstream);
      this.#upstreams.delete(upstream);
    }
  }

  /** The agent's socket, woken first if need be; rejects once the door stops or the caller is cut. */
  async #reach(cut: AbortSignal): Promise<Deno.Conn> {
    const signal = AbortSignal.any([this.#stop.signal, cut]);
    const path = await new Promise<string>((resolve, reject) => {
      const onStop = () =>
        reject(new LinkError("AGENT_NOT_RUNNING", "Cannot reach the agent: its door is closing"));
      signal.addEventListener("abort", onStop, { once: true });
      // The wake goes on for the other callers waiting on it; only its door's end stops it.
      this.#options.target(this.#stop.signal).then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", onStop)
      );
    });
    // Out of descriptors (a flood at the limit), or the agent's socket full of connections it has
    // yet to take, is waited out a moment rather than answered 503.
    for (let wait = 10;; wait *= 2) {
      try {
        return await Deno.connect({ transport: "unix", path });
      } catch (err) {
        const passing = isOutOfDescriptors(err) || err instanceof Deno.errors.WouldBlock;
        if (!passing || wait > 1_000) {
          throw new LinkError("AGENT_NOT_RUNNING", "Cannot reach the agent: nothing answers at its socket", {
            cause: err,
          });
        }
        await this.#clock.sleep(wait, signal);
      }
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
    await this.#accepting.catch(() => {});
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
