import { type Clock, logger, SYSTEM_CLOCK } from "../../base/mod.ts";
import type { DoorActivity } from "./serve_door.ts";
import type { HarnessBusy } from "./harness_busy.ts";
import type { AgentWaker } from "./agent_waker.ts";

const log = logger("bridge");

/**
 * What the idle watch found when `[run] idle_after` lapsed: what kept the agent awake (traffic
 * came meanwhile, an answer is still coming through the door, a turn runs, a background command
 * holds its lock, or the harness could not say), or that it let the agent sleep.
 */
export type IdleCheck = "traffic" | "answer" | "turn" | "lock" | "unknown" | "sleep";

/** What the idle watch looks at and acts on. */
export interface IdleWatchOptions {
  door: { readonly activity: DoorActivity };
  waker: AgentWaker;
  /** `[run] idle_after` in ms (PRC-12). */
  idleAfterMs: number;
  /** Asks the harness whether a turn runs or a background command holds its lock. */
  askHarness: () => Promise<HarnessBusy>;
  clock?: Clock;
  /** Called at each lapse with what was found (tests wait on it). */
  onCheck?: (check: IdleCheck) => void;
  agentId: string;
}

/**
 * Lets an awake agent sleep once nothing has come through its door for `idle_after`, no answer is
 * still coming, no turn runs and no background command holds its lock (PRC-10). It counts from
 * the door's last traffic, so an answer that pauses longer than `idle_after` is never cut (it
 * waits for the door to say the answer ended), and an idle keep-alive connection counts for
 * nothing (PRC-11).
 */
export class IdleWatch implements AsyncDisposable {
  #o: IdleWatchOptions;
  #clock: Clock;
  #stop = new AbortController();
  #doorChanges = new Set<() => void>();
  #running: Promise<void>;

  constructor(options: IdleWatchOptions) {
    this.#o = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#running = this.#run().catch((err) => {
      if (!this.#stop.signal.aborted) {
        log.error("The idle watch stopped", { agent: options.agentId, error: err });
      }
    });
  }

  /** The door's activity changed (wired to its `onActivity`). */
  doorChanged(): void {
    for (const notify of [...this.#doorChanges]) notify();
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    const { door, waker, idleAfterMs } = this.#o;
    let waited = false;
    let awakeSince = this.#clock.now();
    while (!signal.aborted) {
      if (waker.state !== "awake") {
        waited = false;
        await waker.changed(signal);
        awakeSince = this.#clock.now(); // a wake counts as traffic: a woken agent is given its idle_after
        continue;
      }
      const seen = door.activity;
      const left = Math.max(seen.lastTrafficAt, awakeSince) + idleAfterMs - this.#clock.now();
      if (left > 0) {
        if (waited) this.#report("traffic");
        waited = true;
        await this.#clock.sleep(left, signal);
        continue;
      }
      waited = false;
      const holds = seen.busy ? "answer" : await this.#harnessHolds();
      if (signal.aborted) return;
      if (holds) {
        this.#report(holds);
        if (holds === "answer") await this.#doorChange(signal);
        else await this.#clock.sleep(idleAfterMs, signal);
        continue;
      }
      const now = door.activity;
      if (now.busy || now.lastTrafficAt !== seen.lastTrafficAt || waker.state !== "awake") continue;
      this.#report("sleep");
      await waker.sleep();
    }
  }

  /** What holds the agent awake inside its harness; nothing when the harness is gone. */
  async #harnessHolds(): Promise<IdleCheck | undefined> {
    try {
      const busy = await this.#o.askHarness();
      return busy.turns > 0 ? "turn" : busy.locks > 0 ? "lock" : undefined;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.ConnectionRefused) {
        return undefined;
      }
      log.warn("Cannot ask the harness whether it is busy: the agent stays awake", {
        agent: this.#o.agentId,
        error: err,
      });
      return "unknown";
    }
  }

  #doorChange(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#doorChanges.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#doorChanges.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  #report(check: IdleCheck): void {
    log.debug(check === "sleep" ? "Idle: the agent sleeps" : "Idle lapse: the agent stays awake", {
      agent: this.#o.agentId,
      check,
    });
    this.#o.onCheck?.(check);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }
}
