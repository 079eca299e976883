import { type Clock, logger } from "../../base/mod.ts";
import type { ConversationStore, Lease } from "../store/mod.ts";
import { clearMark, holderGone } from "./holder_marks.ts";
import { thisHolder } from "./lease_holder.ts";

const log = logger("harness");

/** What taking a conversation's turn needs. */
export interface TakeOptions {
  clock: Clock;
  /** How often the lease is renewed while held (TRN-1). */
  renewMs: number;
  /** When an unrenewed lease belongs to a dead process: the agent's setting (TRN-2, TRN-3). */
  lapseMs: number;
  /** Stops renewing (the harness is stopping); the lease is then left to lapse. */
  signal?: AbortSignal;
  /** Where holders keep their marks (holder_marks.ts), to tell a dead holder of another sandbox. */
  marks?: string;
}

/**
 * turn.take (TRN-7): takes a conversation's lease when it is free or lapsed, one taker at a time,
 * and renews it until released. A lease whose holder is provably dead (a process of this boot
 * that is gone, or whose mark no process holds) is taken without waiting out the lapse, judged so that only that very lease, and
 * never a fresher one, can be taken. Undefined when another process holds the turn.
 */
export async function takeLease(
  store: ConversationStore,
  conversation: string,
  options: TakeOptions,
): Promise<LeaseKeeper | undefined> {
  const now = options.clock.now();
  const lease: Lease = { holder: thisHolder(), turn: crypto.randomUUID(), renewed_at_ms: now };
  let taken = await store.leaseTake(conversation, lease, { lapseMs: options.lapseMs, nowMs: now });
  if (!taken) {
    const current = await store.leaseRead(conversation);
    const age = current ? now - current.renewed_at_ms : 0;
    if (current && age >= 1 && age < options.lapseMs && await holderGone(current.holder, options.marks)) {
      taken = await store.leaseTake(conversation, lease, { lapseMs: age, nowMs: now });
      if (taken) {
        log.info("Took the turn of a process that died", { conversation, pid: current.holder.pid });
        if (options.marks !== undefined) await clearMark(options.marks, current.holder);
      }
    }
  }
  return taken ? new LeaseKeeper(store, conversation, taken, options) : undefined;
}

/** A lease this process holds: renewed every `renewMs` until released; `lost` aborts if another took it. */
export class LeaseKeeper implements AsyncDisposable {
  readonly conversation: string;
  readonly lease: Lease;
  #store: ConversationStore;
  #options: TakeOptions;
  #stop = new AbortController();
  #lost = new AbortController();
  #renewing: Promise<void>;
  #released = false;

  constructor(store: ConversationStore, conversation: string, lease: Lease, options: TakeOptions) {
    this.#store = store;
    this.conversation = conversation;
    this.lease = lease;
    this.#options = options;
    this.#renewing = this.#renew();
  }

  /** Aborts when the lease was lost: another process judged it lapsed and took it. */
  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  async #renew(): Promise<void> {
    const { clock, renewMs, signal } = this.#options;
    const stop = signal ? AbortSignal.any([signal, this.#stop.signal]) : this.#stop.signal;
    for (;;) {
      try {
        await clock.sleep(renewMs, stop);
      } catch {
        return;
      }
      const now = clock.now();
      let ours = false;
      try {
        ours = await this.#store.leaseRenew(this.conversation, this.lease, now);
      } catch (err) {
        log.warn("Cannot renew the turn's lease", { conversation: this.conversation, error: err });
        continue;
      }
      if (!ours) {
        log.warn("Lost the turn's lease: another process took it", { conversation: this.conversation });
        this.#lost.abort(new Error("the turn's lease was taken by another process"));
        return;
      }
      this.lease.renewed_at_ms = now;
    }
  }

  /** Stops renewing and lets the lease go, so the next message's taker need not wait. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.#stop.abort();
    await this.#renewing;
    if (!this.#lost.signal.aborted) await this.#store.leaseRelease(this.conversation, this.lease);
  }

  /**
   * Stops renewing but leaves the lease in place as lapsed, for a turn stopped mid-way: its next
   * taker finds it and finishes the turn (TRN-4) without waiting out the lapse.
   */
  async abandon(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.#stop.abort();
    await this.#renewing;
    if (this.#lost.signal.aborted) return;
    await this.#store.leaseRenew(
      this.conversation,
      this.lease,
      this.lease.renewed_at_ms - this.#options.lapseMs,
    )
      .catch((err) =>
        log.warn("Cannot mark the lease lapsed", { conversation: this.conversation, error: err })
      );
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
