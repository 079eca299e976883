import type { ConversationEvent, ConversationStore, StoredEvent } from "../store/mod.ts";

/**
 * One conversation's events as this process has read them, kept up to date by reading on from
 * the last one seen. Every write is conditional on its number (TRN-8): a writer that loses reads
 * again, so what it writes next always follows everything before it.
 */
export class EventLog {
  readonly store: ConversationStore;
  readonly conversation: string;
  #events: StoredEvent[] = [];
  #loaded = false;

  constructor(store: ConversationStore, conversation: string) {
    this.store = store;
    this.conversation = conversation;
  }

  /** The events read so far, oldest first. */
  get events(): readonly StoredEvent[] {
    return this.#events;
  }

  /** The highest event number read; 0 for none. */
  get last(): number {
    return this.#events.at(-1)?.n ?? 0;
  }

  /** Reads the events written since the last one seen; returns them. */
  async refresh(): Promise<StoredEvent[]> {
    const from = this.last + 1;
    const read = await this.store.read(this.conversation, this.#loaded ? from : 1);
    this.#loaded = true;
    const fresh: StoredEvent[] = [];
    for (const e of read) {
      if (e.n !== this.last + 1) continue; // read already, by a refresh that ran alongside
      this.#events.push(e);
      fresh.push(e);
    }
    return fresh;
  }

  /**
   * Writes the event after the last one seen; on a conflict (someone wrote that number first)
   * reads again and returns undefined, so the caller can look at what came before it writes.
   */
  async tryAppend(event: ConversationEvent): Promise<number | undefined> {
    if (!this.#loaded) await this.refresh();
    const n = this.last + 1;
    const outcome = await this.store.append(this.conversation, n, event);
    if (outcome === "conflict") {
      await this.refresh();
      return undefined;
    }
    if (this.last === n - 1) this.#events.push({ n, event });
    return n;
  }

  /** Writes the event at the first free number, reading again after each conflict. */
  async append(event: ConversationEvent): Promise<number> {
    for (;;) {
      const n = await this.tryAppend(event);
      if (n !== undefined) return n;
    }
  }
}
