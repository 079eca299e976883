/** What a connection's carrier has kept and not yet answered, in the order it came, one at a time. */
export class EntryQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  push(item: T): void {
    this.#items.push(item);
    this.#wake?.();
  }

  /** Ends the iteration once what is queued has been taken. */
  close(): void {
    this.#closed = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.#items.length > 0) {
        yield this.#items.shift()!;
        continue;
      }
      if (this.#closed) return;
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#wake = resolve;
      await promise;
      this.#wake = undefined;
    }
  }
}

/** Resolves once `signal` aborts: a carrier that cannot go on waits for its stop. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
