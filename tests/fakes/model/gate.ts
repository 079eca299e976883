/**
 * A gate a fake's reply waits at: `step()` lets one waiter through, `open()` lets every waiter
 * through from now on, `abort()` fails every waiter (the fake is closing).
 */
export class Gate {
  #permits = 0;
  #open = false;
  #aborted: { reason: unknown } | undefined;
  #waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  /** Resolves when the gate lets this waiter through. */
  wait(): Promise<void> {
    if (this.#aborted) return Promise.reject(this.#aborted.reason);
    if (this.#open) return Promise.resolve();
    if (this.#permits > 0) {
      this.#permits--;
      return Promise.resolve();
    }
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.#waiters.push({ resolve, reject });
    return promise;
  }

  /** Lets `count` waiters through, now or as they come. */
  step(count = 1): void {
    for (let i = 0; i < count; i++) {
      const waiter = this.#waiters.shift();
      if (waiter) waiter.resolve();
      else this.#permits++;
    }
  }

  /** Lets everything through from now on. */
  open(): void {
    this.#open = true;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  /** Fails every waiter, now and later. */
  abort(reason: unknown): void {
    this.#aborted = { reason };
    for (const waiter of this.#waiters.splice(0)) waiter.reject(reason);
  }
}
