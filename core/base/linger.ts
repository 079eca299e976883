import { type Clock, SYSTEM_CLOCK } from "./clock.ts";

/** How long a process no agent owns stays after its last agent (PRC-15). */
export const LINGER_MS = 20_000;

/**
 * Ends a process no agent owns a while after its last agent leaves (PRC-14, PRC-15), so an agent
 * started again meanwhile is not left with none: the count starts when its agents fall to none
 * and stops when one comes.
 */
export class Linger implements Disposable {
  #ms: number;
  #clock: Clock;
  #onEnd: () => void;
  #counting: AbortController | undefined;

  constructor(options: { ms: number; clock?: Clock; onEnd: () => void }) {
    this.#ms = options.ms;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#onEnd = options.onEnd;
  }

  /** Whether the count runs now: the process has no agent and will end. */
  get lingering(): boolean {
    return this.#counting !== undefined;
  }

  /** Says how many agents the process has now. */
  set(agents: number): void {
    if (agents > 0) {
      this.#counting?.abort();
      this.#counting = undefined;
      return;
    }
    if (this.#counting) return;
    const counting = new AbortController();
    this.#counting = counting;
    this.#clock.sleep(this.#ms, counting.signal).then(() => {
      if (this.#counting !== counting) return;
      this.#counting = undefined;
      this.#onEnd();
    }, () => {});
  }

  [Symbol.dispose](): void {
    this.#counting?.abort();
    this.#counting = undefined;
  }
}
