import type { Clock } from "../../core/base/mod.ts";

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A Clock that moves only when a test calls `advance(ms)`, so timed code (timeouts, leases,
 * schedules) runs without waiting on real time. Sleepers wake in deadline order.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #sleepers: Sleeper[] = [];
  #watchers: { count: number; resolve: () => void }[] = [];

  /** Starts at `start` ms since the epoch: 2025-01-01T00:00:00Z unless told. */
  constructor(start: number = Date.UTC(2025, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const sleeper: Sleeper = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#sleepers.push(sleeper);
      this.#notify();
    });
  }

  /** How many sleeps are waiting. */
  get pending(): number {
    return this.#sleepers.length;
  }

  /** Resolves once at least `count` sleeps are waiting: the code under test has reached its wait. */
  waitForSleepers(count = 1): Promise<void> {
    if (this.#sleepers.length >= count) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#watchers.push({ count, resolve });
    return promise;
  }

  /** Moves time on by `ms`, waking each due sleeper in order and letting its code run. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#sleepers
        .filter((s) => s.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      this.#now = next.at;
      next.resolve();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  #notify(): void {
    const ready = this.#watchers.filter((w) => this.#sleepers.length >= w.count);
    this.#watchers = this.#watchers.filter((w) => this.#sleepers.length < w.count);
    for (const w of ready) w.resolve();
  }
}

/** Lets woken code run: one macrotask turn, not a wait on time. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
