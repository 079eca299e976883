import type { Clock } from "../../core/base/mod.ts";

interface Timer {
  at: number;
  resolve: () => void;
}

/** A clock tests drive: time moves only by advance(), and sleepers wake in order. */
export class FakeClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  constructor(start = Date.UTC(2026, 10, 30, 9, 0, 0)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.#now + Math.max(0, ms), resolve };
      this.#timers.push(timer);
      signal?.addEventListener("abort", () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal.reason);
      }, { once: true });
    });
  }
  /** How many sleepers wait. */
  get waiting(): number {
    return this.#timers.length;
  }
  /** Moves time forward, waking each sleeper whose time came, in order, letting each run. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    while (true) {
      this.#timers.sort((a, b) => a.at - b.at);
      const next = this.#timers[0];
      if (!next || next.at > until) break;
      this.#timers.shift();
      this.#now = next.at;
      next.resolve();
      await settle();
    }
    this.#now = until;
    await settle();
  }
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}
