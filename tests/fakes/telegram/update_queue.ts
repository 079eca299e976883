/**
 * The fake Telegram's updates: queued until an offset past them confirms them, handed to one held
 * long poll at a time (a newer getUpdates ends the older with 409), and refused while a webhook is
 * set, as the Bot API does.
 */
import type { Clock } from "../../../core/base/mod.ts";
import type { FakeTelegramCall, TgUpdate } from "./types.ts";
import { type Answer, CONFLICT, errorAnswer, intParam, jsonParam, okAnswer } from "./wire.ts";

/** Update kinds delivered when a bot never set allowed_updates. */
const DEFAULT_EXCLUDED = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

const WEBHOOK_CONFLICT =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

interface HeldPoll {
  limit: number;
  token: string;
  finish(answer: Answer): void;
}

/** A bot's queue of updates and its one held long poll. */
export class UpdateQueue {
  /** The webhook set with setWebhook: while there is one, getUpdates is refused. */
  webhook: string | undefined;
  #clock: Clock;
  #updates: TgUpdate[] = [];
  #nextUpdateId = 100_000_001;
  #allowed: Set<string> | undefined;
  #poll: HeldPoll | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Queues any update (`{ message: … }`); it gets the next update_id, and a held poll gets it at once. */
  enqueue(update: Record<string, unknown>): TgUpdate {
    const full: TgUpdate = { update_id: this.#nextUpdateId++, ...update };
    const kind = Object.keys(update)[0] ?? "";
    const allowed = this.#allowed ? this.#allowed.has(kind) : !DEFAULT_EXCLUDED.has(kind);
    if (!allowed) return full;
    this.#updates.push(full);
    const poll = this.#poll;
    if (poll) this.finishPoll(okAnswer(this.#updates.slice(0, poll.limit)));
    return full;
  }

  /** The updates not yet confirmed by an offset past them. */
  get pending(): TgUpdate[] {
    return [...this.#updates];
  }

  /** Forgets the updates not yet confirmed (`drop_pending_updates`). */
  drop(): void {
    this.#updates = [];
  }

  /** Whether a getUpdates is held open now. */
  get polling(): boolean {
    return this.#poll !== undefined;
  }

  /** The token the held poll came with, if one is held. */
  get pollToken(): string | undefined {
    return this.#poll?.token;
  }

  /** Ends the held poll, if there is one, with `answer`. */
  finishPoll(answer: Answer): void {
    const poll = this.#poll;
    if (!poll) return;
    this.#poll = undefined;
    poll.finish(answer);
  }

  /** getUpdates: confirms by offset, answers at once what is queued, or holds the poll for `timeout`. */
  getUpdates(call: FakeTelegramCall, signal: AbortSignal): Answer | Promise<Answer> {
    const p = call.params;
    if (this.webhook !== undefined) return errorAnswer({ error_code: 409, description: WEBHOOK_CONFLICT });
    // An older poll still held ends now, whatever this one does.
    this.finishPoll(errorAnswer({ error_code: 409, description: CONFLICT }));
    const offset = intParam(p, "offset") ?? 0;
    const limit = Math.min(100, Math.max(1, intParam(p, "limit") ?? 100));
    const timeout = Math.max(0, intParam(p, "timeout") ?? 0);
    const allowed = jsonParam(p, "allowed_updates");
    if (Array.isArray(allowed)) {
      this.#allowed = allowed.length === 0 ? undefined : new Set(allowed.map(String));
    }
    if (offset > 0) this.#updates = this.#updates.filter((u) => u.update_id >= offset);
    if (offset < 0) this.#updates = this.#updates.slice(offset);
    if (this.#updates.length > 0 || timeout === 0) return okAnswer(this.#updates.slice(0, limit));
    return this.#hold(call.token, { limit, timeout }, signal);
  }

  #hold(token: string, wait: { limit: number; timeout: number }, signal: AbortSignal): Promise<Answer> {
    const { promise, resolve } = Promise.withResolvers<Answer>();
    const timer = new AbortController();
    const poll: HeldPoll = {
      limit: wait.limit,
      token,
      finish: (answer) => {
        timer.abort();
        signal.removeEventListener("abort", onLeave);
        resolve(answer);
      },
    };
    const onLeave = () => {
      if (this.#poll === poll) this.finishPoll({ kind: "drop" });
    };
    signal.addEventListener("abort", onLeave);
    this.#poll = poll;
    this.#clock.sleep(wait.timeout * 1000, timer.signal).then(
      () => this.#poll === poll && this.finishPoll(okAnswer([])),
      () => {},
    );
    return promise;
  }
}
