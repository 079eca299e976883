/**
 * The locks a background command holds while it runs, so the agent never sleeps under it
 * (PRC-10): the bridge asks for their count at `/_link/busy` before it lets the agent sleep.
 */
export class CommandLocks {
  #held = new Map<symbol, string>();

  /** How many locks are held now. */
  get held(): number {
    return this.#held.size;
  }

  /** What holds each lock, for logs. */
  get holders(): string[] {
    return [...this.#held.values()];
  }

  /** Takes a lock for `what` until the returned value is disposed (`using lock = locks.hold("…")`). */
  hold(what: string): Disposable {
    const id = Symbol(what);
    this.#held.set(id, what);
    return { [Symbol.dispose]: () => void this.#held.delete(id) };
  }
}
