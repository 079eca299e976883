import type { Clock } from "../../base/mod.ts";

/**
 * A deadline that counts only the caller's time (BRG-12): it runs while the door waits on the
 * caller, and stops while the agent wakes or owes an answer, so a slow start or a slow answer
 * never cuts a caller while one dripping its bytes is cut within the whole `ms`.
 */
export class ProofDeadline {
  #clock: Clock;
  #left: number;
  #onExpired: () => void;
  #running: { since: number; stop: AbortController } | undefined;
  #over = false;

  constructor(clock: Clock, ms: number, onExpired: () => void) {
    this.#clock = clock;
    this.#left = ms;
    this.#onExpired = onExpired;
  }

  /** Runs the deadline (the caller's time) when `callersTime`, else stops it where it stands. */
  set(callersTime: boolean): void {
    if (this.#over) return;
    if (callersTime && !this.#running) this.#run();
    else if (!callersTime && this.#running) this.#pause();
  }

  /** Ends the deadline for good: the caller proved itself, or the connection ended. */
  end(): void {
    this.#pause();
    this.#over = true;
  }

  #run(): void {
    const running = { since: this.#clock.now(), stop: new AbortController() };
    this.#running = running;
    this.#clock.sleep(this.#left, running.stop.signal).then(() => {
      if (this.#running !== running) return;
      this.#running = undefined;
      this.#over = true;
      this.#onExpired();
    }, () => {});
  }

  #pause(): void {
    const running = this.#running;
    if (!running) return;
    this.#running = undefined;
    this.#left = Math.max(0, this.#left - (this.#clock.now() - running.since));
    running.stop.abort();
  }
}
