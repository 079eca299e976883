import { type Clock, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import type { AskCaller, EndpointAddress } from "../mod.ts";
import { EntryQueue, untilAborted } from "../chat/mod.ts";
import { deregisteredWhy, isDeregistered } from "./deregistered.ts";
import { addresseeOf, SignalOwner } from "./addressee.ts";
import { type AnswerContext, answerEnvelope } from "./answer_envelope.ts";
import { receiveEvents } from "./receive_events.ts";
import { sendSignalHeld } from "./send_held.ts";
import type { SignalAccount } from "./signal_account.ts";
import { envelopeKey, SignalReceive } from "./signal_envelope.ts";
import { isEnvelopeKey, SignalInbox, type SignalInboxEntry } from "./signal_inbox.ts";
import type { SignalState } from "./signal_state.ts";

const log = logger("signal");

/** The longest wait between two tries to answer a message whose endpoint or daemon does not answer. */
const MAX_REACH_RETRY_MS = 30_000;

/** What carrying a Signal connection needs. */
export interface CarrySignalOptions {
  account: SignalAccount;
  /** The connection's folder: the inbox of kept envelopes, the answered ones, the held answers. */
  stateDir: string;
  /** The owner's number, as the person typed it (CON-6). */
  ownerNumber: string;
  /** Who else is answered, from `[access] message`: `access.persons` by number (ACS-2). */
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock?: Clock;
  signal: AbortSignal;
  onState?: (state: SignalState) => void;
}

type Queued = { key: string; entry: SignalInboxEntry };

/**
 * Carries a Signal connection until `signal` aborts: holds the daemon's event stream, keeps each
 * envelope that is answered in the inbox before answering it, and answers them in order, one at a
 * time (CON-9). An envelope the daemon sends again, (source, timestamp) the same, is answered
 * once; envelopes kept and not answered before a crash are answered first. Meanwhile the answers
 * the bridge holds for the connection go to the owner's own number (SCH-3). An account Signal no
 * longer knows (deregistered: a send refused with 401, or a daemon that dropped it) says "failed"
 * with what to do and carries nothing more, what it could not answer left kept; it still returns
 * only when `signal` aborts.
 */
export async function carrySignal(options: CarrySignalOptions): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const inbox = await SignalInbox.open(options.stateDir);
  const owner = await SignalOwner.open(options.stateDir, options.ownerNumber);
  const halt = new AbortController();
  const signal = AbortSignal.any([options.signal, halt.signal]);
  const failed = () => {
    if (halt.signal.aborted) return;
    log.error("Cannot carry Signal: Signal no longer knows the account");
    options.onState?.({ state: "failed", why: deregisteredWhy(options.account), at: clock.now() });
    halt.abort();
  };
  const ctx: AnswerContext = { ...options, inbox, owner, clock, signal, onDeregistered: failed };
  const queue = new EntryQueue<Queued>();
  for (const item of await inbox.pending()) queue.push(item);
  const answering = answerAll(ctx, queue);
  const delivering = sendSignalHeld({ ...options, clock, signal, onDeregistered: failed }).catch((err) => {
    if (!signal.aborted) log.error("Held answers are no longer sent", { err });
  });
  try {
    const ended = await receiveEvents({
      account: options.account,
      clock,
      signal,
      onState: (state) => {
        if (!halt.signal.aborted) options.onState?.(state);
      },
      async keep(data) {
        const item = await keepOne(ctx, data);
        if (item) queue.push(item);
      },
    });
    if (ended === "deregistered") halt.abort();
    if (halt.signal.aborted) await untilAborted(options.signal);
  } finally {
    queue.close();
    halt.abort();
    await answering;
    await delivering;
  }
}

/** Keeps one `receive` event's envelope if it is answered and new; what is not is dropped at debug. */
async function keepOne(ctx: AnswerContext, data: unknown): Promise<Queued | undefined> {
  const parsed = SignalReceive.safeParse(data);
  if (!parsed.success) {
    log.debug("Dropped a Signal event that holds no envelope Link reads");
    return undefined;
  }
  const envelope = parsed.data.envelope;
  const key = envelopeKey(envelope);
  const to = await addresseeOf(envelope, ctx);
  if (!key || !isEnvelopeKey(key) || !to) {
    log.debug("Dropped a Signal envelope that is not a direct message from the owner or a person let in", {
      sender: envelope.sourceNumber ?? envelope.sourceUuid,
      kinds: Object.keys(envelope).filter((k) => k.endsWith("Message")),
    });
    return undefined;
  }
  if (ctx.inbox.has(key)) {
    log.info("Dropped a Signal envelope sent again, answered once", { envelope: key });
    return undefined;
  }
  return { key, entry: await ctx.inbox.keep(key, envelope) };
}

/** Answers each queued envelope in turn; one whose endpoint or daemon does not answer is tried again, in place. */
async function answerAll(ctx: AnswerContext, queue: EntryQueue<Queued>): Promise<void> {
  for await (const { key, entry } of queue) {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await answerEnvelope(ctx, key, entry);
        break;
      } catch (err) {
        if (isDeregistered(err)) ctx.onDeregistered();
        if (ctx.signal.aborted) break;
        log.warn("Cannot answer a Signal message yet, trying again", { envelope: key, err, attempt });
        await ctx.clock.sleep(Math.min(MAX_REACH_RETRY_MS, 1000 * 2 ** attempt), ctx.signal).catch(() => {});
      }
    }
  }
}
