import { type Clock, LinkError, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import { telegramFailure } from "./check_telegram_token.ts";
import { grammySignal, type TelegramAccount, telegramApi } from "./telegram_account.ts";
import { type TelegramMessage, TelegramUpdate } from "./telegram_update.ts";
import { readOffset, saveOffset } from "./update_offset.ts";

/** The longest one getUpdates waits, in seconds. */
const POLL_SECONDS = 30;

/** A wait for one message with the code: until when, the connection's folder, and what failing says. */
export interface PairingPollOptions {
  expiresAt: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
  /** What failed, as an error says it: "Cannot pair the owner on Telegram". */
  action: string;
  /** The error when nobody sent the code in time. */
  expired(): LinkError;
}

/**
 * Long-polls getUpdates (new messages only: an edit never pairs) until `pick` takes a message
 * before `expiresAt`, and resolves with what it made. The offset past every update read is saved,
 * so the carrier started after does not answer the pairing's messages and starts where it left.
 */
export async function pollForCode<T>(
  account: TelegramAccount,
  options: PairingPollOptions,
  pick: (message: TelegramMessage | undefined) => T | undefined,
): Promise<T> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const api = telegramApi(account);
  let offset = await readOffset(options.stateDir);
  while (clock.now() < options.expiresAt) {
    options.signal?.throwIfAborted();
    const timeout = Math.max(0, Math.min(POLL_SECONDS, Math.ceil((options.expiresAt - clock.now()) / 1000)));
    let updates: unknown[];
    try {
      updates = await api.getUpdates(
        { offset, timeout, allowed_updates: ["message"] },
        grammySignal(options.signal),
      );
    } catch (err) {
      options.signal?.throwIfAborted();
      throw telegramFailure(account, err, options.action);
    }
    let found: T | undefined;
    for (const raw of updates) {
      const update = TelegramUpdate.safeParse(raw);
      if (!update.success) continue;
      offset = Math.max(offset, update.data.update_id + 1);
      if (found !== undefined || clock.now() >= options.expiresAt) continue;
      found = pick(update.data.message);
    }
    await saveOffset(options.stateDir, offset);
    if (found !== undefined) return found;
  }
  throw options.expired();
}

/** Counts a sender's wrong codes: past `limit`, their messages are no longer read. */
export class Strikes {
  #counts = new Map<number | string, number>();
  #limit: number;
  #onLimit: (sender: number | string) => void;

  constructor(limit: number, onLimit: (sender: number | string) => void) {
    this.#limit = limit;
    this.#onLimit = onLimit;
  }

  /** Whether the sender sent too many wrong codes already. */
  out(sender: number | string): boolean {
    return (this.#counts.get(sender) ?? 0) >= this.#limit;
  }

  /** One more wrong code from the sender. */
  strike(sender: number | string): void {
    const n = (this.#counts.get(sender) ?? 0) + 1;
    this.#counts.set(sender, n);
    if (n === this.#limit) this.#onLimit(sender);
  }
}
