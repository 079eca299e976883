import { type Clock, errorWire, logger } from "../base/mod.ts";
import { RunnerPool } from "../scheduler/mod.ts";
import { sendSocketPath } from "../agent/mod.ts";
import {
  type BridgesError,
  bridgesFilePath,
  type BridgesSnapshot,
  type CarriedState,
  readBridgesFile,
  type SyncAnswer,
} from "../agent/sharing/mod.ts";
import { AgentsWatch } from "./agents_watch.ts";
import { type CarriedAgent, carryAgent, type CarryOptions } from "./carried_agent.ts";
import { Linger, LINGER_MS } from "../base/mod.ts";

const log = logger("bridges");

/** What the shared bridge runs with. */
export interface SharedBridgeOptions extends CarryOptions {
  /** How long it stays once it has no agent (PRC-15): 20 s unless told. */
  lingerMs?: number;
  clock?: Clock;
}

/**
 * One bridge for every agent of this user on the machine (PRC-6, `shared_bridge = true`): it
 * carries each agent on its list (bridges.json), reading it again at each change, and runs one
 * scheduler runner a time zone of its agents (PRC-7). An agent asleep holds no process of its own.
 * It ends `lingerMs` after its last agent leaves (PRC-15): `ended` resolves then, and a sync from
 * then on answers `ending`. Every change is one step at a time.
 */
export class SharedBridge implements AsyncDisposable {
  #o: SharedBridgeOptions;
  #carried = new Map<string, CarriedAgent>();
  #failed = new Map<string, { start: string; error: BridgesError }>();
  #queue: Promise<unknown> = Promise.resolve();
  #scheduled = false;
  #ending = false;
  #closed = false;
  #ended = Promise.withResolvers<void>();
  #broken = withHandled(Promise.withResolvers<never>());
  #linger: Linger;
  #runners: RunnerPool;
  #watch: AgentsWatch;

  private constructor(options: SharedBridgeOptions) {
    this.#o = options;
    this.#runners = new RunnerPool(options.ctx.paths);
    this.#watch = new AgentsWatch(bridgesFilePath(options.ctx.paths), () => this.#schedule(), {
      clock: options.clock,
    });
    this.#linger = new Linger({
      ms: options.lingerMs ?? LINGER_MS,
      clock: options.clock,
      onEnd: () => void this.#step(() => this.#endIfEmpty()),
    });
  }

  /** Opens the bridge over the agents on its list now (each asleep, or awake if still running). */
  static async open(options: SharedBridgeOptions): Promise<SharedBridge> {
    await Deno.mkdir(options.ctx.paths.run, { recursive: true, mode: 0o700 });
    const bridge = new SharedBridge(options);
    try {
      await bridge.#step(() => bridge.#reconcile());
    } catch (err) {
      await bridge[Symbol.asyncDispose]();
      throw err;
    }
    return bridge;
  }

  /** Resolves once the bridge has had no agent for its whole linger: it should end. */
  get ended(): Promise<void> {
    return this.#ended.promise;
  }

  /**
   * Rejects with why once a carried agent's door or bridge stopped accepting on its own: the
   * shared bridge then ends with that reason rather than carry an agent no one can reach.
   */
  get broken(): Promise<never> {
    return this.#broken.promise;
  }

  /** What it carries now, its runners, and whether it lingers. */
  snapshot(): BridgesSnapshot {
    return {
      pid: Deno.pid,
      lingering: this.#linger.lingering || this.#ending,
      ending: this.#ending,
      agents: [...this.#carried.values()].map(stateOf).sort((a, b) => a.id.localeCompare(b.id)),
      failed: [...this.#failed].map(([id, f]) => ({ id, error: f.error })),
      runners: this.#runners.runners,
    };
  }

  /**
   * Reads the list again now and says where `agent` stands: carried (woken first when `wake`), let
   * go, or the error that keeps it off (its start's own reason when a wake failed). An agent that
   * failed before is tried again. Once the linger ran out it answers `ending`.
   */
  async sync(request: { agent?: string; wake?: boolean }): Promise<SyncAnswer> {
    const ending = await this.#step(async () => {
      if (this.#ending || this.#closed) return true;
      await this.#reconcile(request.agent);
      return false;
    });
    if (ending) {
      return {
        agent: null,
        ending: true,
        error: { code: "SERVICE_FAILED", message: "The shared bridge is ending: it had no agent left" },
      };
    }
    const id = request.agent;
    if (id === undefined) return { agent: null };
    const carried = this.#carried.get(id);
    if (!carried) return { agent: null, error: this.#failed.get(id)?.error };
    if (request.wake) {
      try {
        await carried.door.wake();
      } catch (err) {
        return { agent: stateOf(carried), error: bridgesError(err) };
      }
    }
    return { agent: stateOf(carried) };
  }

  #step<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Reads the list again soon: once for any number of changes seen meanwhile. */
  #schedule(): void {
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    void this.#step(async () => {
      this.#scheduled = false;
      if (!this.#ending) await this.#reconcile();
    }).catch((err) => log.error("Cannot read the shared bridge's agents again", { error: err }));
  }

  async #reconcile(retry?: string): Promise<void> {
    if (this.#closed) return;
    let listed;
    try {
      listed = (await readBridgesFile(this.#o.ctx.paths)).agents;
    } catch (err) {
      log.error("Cannot read the shared bridge's agents: they stay as they were", { error: err });
      return;
    }
    for (const [id, carried] of [...this.#carried]) {
      if (listed[id]?.start === carried.start) continue;
      this.#carried.delete(id);
      await carried.drop().catch((err) => log.error("Cannot stop the agent", { agent: id, error: err }));
    }
    for (const [id, failed] of [...this.#failed]) {
      if (listed[id]?.start !== failed.start) this.#failed.delete(id);
    }
    for (const [id, { start }] of Object.entries(listed)) {
      const carried = this.#carried.get(id);
      if (carried) {
        await carried.refreshZone();
        continue;
      }
      if (this.#failed.get(id)?.start === start && id !== retry) continue;
      try {
        const carried = await carryAgent(id, start, this.#o);
        carried.failed.catch((err) => this.#broken.reject(err));
        this.#carried.set(id, carried);
        this.#failed.delete(id);
      } catch (err) {
        this.#failed.set(id, { start, error: bridgesError(err) });
        log.error("Cannot carry the agent", { agent: id, error: err });
      }
    }
    const paths = this.#o.ctx.paths;
    await this.#runners.update(
      // An agent whose machine fires its jobs (wake = address, SCH-5) is on no runner.
      [...this.#carried.values()].filter((c) => c.wake !== "address").map((c) => ({
        id: c.id,
        zone: c.zone,
        wayIn: sendSocketPath(paths, c.id),
      })),
    );
    this.#watch.follow([...this.#carried.values()].map((c) => c.specPath));
    this.#linger.set(this.#carried.size);
  }

  #endIfEmpty(): Promise<void> {
    if (this.#closed || this.#ending) return Promise.resolve();
    if (this.#carried.size > 0) {
      this.#linger.set(this.#carried.size);
      return Promise.resolve();
    }
    this.#ending = true;
    log.info("No agent came during the linger: the shared bridge ends");
    this.#ended.resolve();
    return Promise.resolve();
  }

  /** Closes every door and bridge and ends the runners; agents' services stay, as with their own bridges. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#linger[Symbol.dispose]();
    await this.#watch[Symbol.asyncDispose]();
    await this.#queue;
    for (const carried of this.#carried.values()) await carried[Symbol.asyncDispose]();
    this.#carried.clear();
    await this.#runners[Symbol.asyncDispose]();
  }
}

function stateOf(carried: CarriedAgent): CarriedState {
  return { id: carried.id, state: carried.door.state, port: carried.door.port, zone: carried.zone };
}

function bridgesError(err: unknown): BridgesError {
  return errorWire(err).error;
}

/** Resolvers whose promise never counts as unhandled: whoever awaits it still gets the rejection. */
function withHandled<T>(resolvers: PromiseWithResolvers<T>): PromiseWithResolvers<T> {
  resolvers.promise.catch(() => {});
  return resolvers;
}
