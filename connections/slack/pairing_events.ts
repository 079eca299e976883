import { type Clock, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import { receiveEvents } from "./receive_events.ts";
import type { SlackAccount } from "./slack_account.ts";
import { SlackEventPayload } from "./slack_event.ts";
import { SlackInbox } from "./slack_inbox.ts";

/** A pairing's wait on Socket Mode: its code's expiry, the connection's folder, its clock and stop. */
export interface PairingWait {
  expiresAt: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/**
 * Listens on Socket Mode, while the bridge is stopped, until `judge` finds what a pairing waits for
 * in an event, the code expires or the app-level token is refused (`failed`, with why). Each event
 * is judged before any await, as envelopes are handled at once, so strikes count in order; every
 * event seen is acked and remembered as answered, so carrying after does not answer it, and those
 * writes are done before this returns, the connection's folder then the carrier's.
 */
export async function waitForPairingEvent<T>(
  account: SlackAccount,
  wait: PairingWait,
  judge: (payload: SlackEventPayload) => T | undefined,
): Promise<{ found?: T; failed?: string }> {
  const clock = wait.clock ?? SYSTEM_CLOCK;
  const inbox = await SlackInbox.open(wait.stateDir);
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ...(wait.signal ? [wait.signal] : [])]);
  let found: T | undefined;
  let failed: string | undefined;
  const writing = new Set<Promise<void>>();
  const expiry = clock.sleep(Math.max(0, wait.expiresAt - clock.now()), signal).then(
    () => stop.abort(),
    () => {},
  );
  await receiveEvents({
    account,
    clock,
    signal,
    onState: (state) => {
      if (state.state !== "failed") return;
      failed = state.why;
      stop.abort();
    },
    keep(raw) {
      const payload = SlackEventPayload.safeParse(raw);
      if (!payload.success || inbox.has(payload.data.event_id)) return Promise.resolve();
      if (found === undefined && clock.now() < wait.expiresAt) {
        found = judge(payload.data);
        if (found !== undefined) stop.abort();
      }
      const done = inbox.finish(payload.data.event_id).finally(() => writing.delete(done));
      writing.add(done);
      return done;
    },
  });
  stop.abort();
  await expiry;
  await Promise.allSettled([...writing]);
  wait.signal?.throwIfAborted();
  return { ...(found === undefined ? {} : { found }), ...(failed === undefined ? {} : { failed }) };
}
