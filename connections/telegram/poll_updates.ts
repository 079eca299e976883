import { type Api, GrammyError } from "grammy";
import { type Clock, LinkError, logger } from "../../core/base/mod.ts";
import { isTokenRefused } from "./check_telegram_token.ts";
import { grammySignal, reasonOf, type TelegramAccount } from "./telegram_account.ts";
import type { TelegramState } from "./telegram_state.ts";
import { readOffset, saveOffset } from "./update_offset.ts";

const log = logger("telegram");

/** How long one getUpdates waits for an update, in seconds. */
export const POLL_SECONDS = 30;
/** How much longer than its own wait a poll may take before it counts as stopped. */
export const POLL_GRACE_MS = 15_000;
/** The longest wait between two tries to reach Telegram again. */
export const MAX_RETRY_MS = 30_000;

/** What the poll needs: the client, the folder of the kept offset, and where each update goes. */
export interface PollUpdatesOptions {
  api: Api;
  account: TelegramAccount;
  stateDir: string;
  clock: Clock;
  signal: AbortSignal;
  onState(state: TelegramState): void;
  /** Keeps one update before its offset is confirmed (persist before acknowledging). */
  keep(updateId: number, update: unknown): Promise<void>;
}

/**
 * Long-polls getUpdates from the kept offset until `signal` aborts, keeping each update before the
 * offset past it is saved and sent. A 409, a dropped connection or a poll that stops answering is
 * retried with backoff ("reconnecting", then "polling" again); a token Telegram refuses ends it
 * ("failed").
 */
export async function pollUpdates(options: PollUpdatesOptions): Promise<"stopped" | "failed"> {
  const { clock, signal } = options;
  let offset = await readOffset(options.stateDir);
  let failures = 0;
  let last: TelegramState["state"] | undefined;
  const say = (state: TelegramState["state"], why?: string) => {
    if (state === last && !why) return;
    last = state;
    options.onState({ state, ...(why ? { why } : {}), at: clock.now() });
  };
  while (!signal.aborted) {
    let updates: unknown[];
    try {
      // After a start or a failure, a quick poll says at once whether Telegram answers.
      updates = await pollOnce(options, offset, last === "polling" ? POLL_SECONDS : 0);
    } catch (err) {
      if (signal.aborted) break;
      if (isTokenRefused(err)) {
        const why = "Telegram refused the bot's token: it may have been revoked";
        log.error("Cannot carry Telegram: Telegram refused the bot's token", {
          err: reasonOf(options.account, err),
        });
        say("failed", why);
        return "failed";
      }
      failures++;
      const why = whyPollFailed(options.account, err);
      log.warn("Cannot read Telegram's updates, trying again", { why, failures });
      say("reconnecting", why);
      await clock.sleep(Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)), signal).catch(() => {});
      continue;
    }
    failures = 0;
    say("polling");
    let next = offset;
    for (const update of updates) {
      const id = (update as { update_id?: unknown }).update_id;
      if (typeof id !== "number" || !Number.isSafeInteger(id) || id < offset) continue;
      await options.keep(id, update);
      next = Math.max(next, id + 1);
    }
    if (next !== offset) await saveOffset(options.stateDir, next);
    offset = next;
  }
  return "stopped";
}

/** One getUpdates, given up on when it outlasts its own wait by POLL_GRACE_MS (a poll that stopped). */
async function pollOnce(options: PollUpdatesOptions, offset: number, timeout: number): Promise<unknown[]> {
  const stop = new AbortController();
  const signal = AbortSignal.any([options.signal, stop.signal]);
  let stalled = false;
  const watchdog = options.clock.sleep(timeout * 1000 + POLL_GRACE_MS, stop.signal).then(() => {
    stalled = true;
    stop.abort();
  }, () => {});
  try {
    return await options.api.getUpdates(
      { offset, timeout, allowed_updates: ["message", "edited_message"] },
      grammySignal(signal),
    );
  } catch (err) {
    if (stalled) throw new LinkError("TIMEOUT", "The poll for Telegram's updates stopped answering");
    throw err;
  } finally {
    stop.abort();
    await watchdog;
  }
}

function whyPollFailed(account: TelegramAccount, err: unknown): string {
  if (err instanceof GrammyError && err.error_code === 409) {
    return "Another program reads this bot's updates (409)";
  }
  if (err instanceof LinkError) return err.message;
  return reasonOf(account, err);
}
