import type { Clock } from "../../base/mod.ts";

/** Wakes whoever waits on a conversation when a turn of it ends in this process. */
export class TurnNudges {
  #waiting = new Map<string, Set<() => void>>();

  /** Wakes every waiter on the conversation. */
  wake(conversation: string): void {
    for (const wake of this.#waiting.get(conversation) ?? []) wake();
    this.#waiting.delete(conversation);
  }

  /** Resolves at the conversation's next wake, after `ms` on the clock, or when the signal aborts. */
  async wait(conversation: string, ms: number, clock: Clock, signal: AbortSignal): Promise<void> {
    const done = new AbortController();
    const any = AbortSignal.any([signal, done.signal]);
    const woken = new Promise<void>((resolve) => {
      const wake = () => resolve();
      const set = this.#waiting.get(conversation) ?? new Set();
      this.#waiting.set(conversation, set.add(wake));
      any.addEventListener("abort", () => (set.delete(wake), resolve()), { once: true });
    });
    await Promise.race([woken, clock.sleep(ms, any).catch(() => {})]);
    done.abort();
  }
}
