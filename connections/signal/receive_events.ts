import { type Clock, logger } from "../../core/base/mod.ts";
import { deregisteredWhy, stillServed } from "./deregistered.ts";
import { readEventStream } from "./event_stream.ts";
import { daemonBase, reasonOf, type SignalAccount } from "./signal_account.ts";
import type { SignalState } from "./signal_state.ts";

const log = logger("signal");

/**
 * How long the stream may stay silent before it counts as stopped: signal-cli writes a keep-alive
 * comment (`:`) on an idle stream every 15 s, so three missed in a row mean the stream is dead
 * even when its socket still looks open.
 */
export const STALE_MS = 45_000;
/** The longest wait between two tries to reach the daemon again. */
export const MAX_RETRY_MS = 30_000;

/** What receiving needs: the account, and where each `receive` event's data goes. */
export interface ReceiveEventsOptions {
  account: SignalAccount;
  clock: Clock;
  signal: AbortSignal;
  onState(state: SignalState): void;
  /** Keeps one event's data; the next is read only once this resolves. */
  keep(data: unknown): Promise<void>;
}

/** How a stream ended: closed by the daemon (or silent), never reached, or refused. */
type Ended = { why: string; kind: "closed" | "unreachable" | "refused" };

/**
 * Holds the daemon's event stream until `signal` aborts, one at a time. A stream the daemon
 * closes (a restart), one that cannot be opened, and one silent past STALE_MS are opened again,
 * with backoff while the daemon does not answer ("reconnecting", then "connected"); a daemon that
 * will not stream this account says "failed" with why, and is tried again at the longest wait,
 * unless it no longer serves the account at all (deregistered): then it says "failed" with what to
 * do and ends ("deregistered"). The last event id is sent back (Last-Event-ID), for daemons that
 * replay what was missed.
 */
export async function receiveEvents(options: ReceiveEventsOptions): Promise<"stopped" | "deregistered"> {
  const { clock, signal } = options;
  let failures = 0;
  let last: SignalState["state"] | undefined;
  const say = (state: SignalState["state"], why?: string) => {
    if (state === last && !why) return;
    last = state;
    options.onState({ state, ...(why ? { why } : {}), at: clock.now() });
  };
  const seen = { lastEventId: undefined as string | undefined };
  while (!signal.aborted) {
    const ended: Ended = await holdOne(options, seen, () => {
      failures = 0;
      say("connected");
    }).catch((err): Ended => ({ why: `the daemon does not answer: ${reasonOf(err)}`, kind: "unreachable" }));
    if (signal.aborted) break;
    if (ended.kind === "refused" && !await stillServed(options.account, signal)) {
      log.error("Cannot carry Signal: the daemon no longer serves the account", { why: ended.why });
      say("failed", deregisteredWhy(options.account));
      return "deregistered";
    }
    if (ended.kind !== "closed") failures++;
    log.info("The Signal event stream ended, opening it again", { why: ended.why, failures });
    say(ended.kind === "refused" ? "failed" : "reconnecting", ended.why);
    const backoff = failures > 0 ? Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1)) : 0;
    const wait = ended.kind === "refused" ? MAX_RETRY_MS : backoff;
    if (wait > 0) await clock.sleep(wait, signal).catch(() => {});
  }
  return "stopped";
}

/** One event stream, from its opening to its end, its silence, or `signal`. */
async function holdOne(
  options: ReceiveEventsOptions,
  seen: { lastEventId: string | undefined },
  onOpen: () => void,
): Promise<Ended> {
  const { account, clock } = options;
  const own = new AbortController();
  const signal = AbortSignal.any([options.signal, own.signal]);
  const query = account.number ? `?account=${encodeURIComponent(account.number)}` : "";
  const res = await fetch(`${daemonBase(account)}/api/v1/events${query}`, {
    headers: {
      accept: "text/event-stream",
      ...(seen.lastEventId ? { "last-event-id": seen.lastEventId } : {}),
    },
    signal,
  });
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return { why: `the daemon will not stream this account's messages: HTTP ${res.status}`, kind: "refused" };
  }
  onOpen();
  let lastHeard = clock.now();
  let silent = false;
  const watchdog = (async () => {
    while (!signal.aborted) {
      const wait = lastHeard + STALE_MS - clock.now();
      if (wait <= 0) {
        silent = true;
        own.abort();
        return;
      }
      await clock.sleep(wait, signal).catch(() => {});
    }
  })();
  try {
    await readEventStream(res.body, {
      onLine: () => lastHeard = clock.now(),
      onEvent: async (event) => {
        if (event.id) seen.lastEventId = event.id;
        if (event.event !== "receive") return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          log.warn("Dropped an event of the Signal daemon that is not JSON");
          return;
        }
        await options.keep(data);
      },
    });
    return { why: "the daemon closed the event stream", kind: "closed" };
  } catch (err) {
    if (silent) return { why: `the event stream was silent for ${STALE_MS / 1000} s`, kind: "closed" };
    if (options.signal.aborted) return { why: "stopped", kind: "closed" };
    throw err;
  } finally {
    own.abort();
    await watchdog;
    await res.body.cancel().catch(() => {});
  }
}
