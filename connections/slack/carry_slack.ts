import { type Clock, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { AskCaller, EndpointAddress } from "../mod.ts";
import { answerEvent, type AnswerEventContext } from "./answer_event.ts";
import { isTokenRefused } from "./check_slack_tokens.ts";
import { receiveEvents } from "./receive_events.ts";
import { type SlackAccount, slackWebClient } from "./slack_account.ts";
import { SlackEventPayload } from "./slack_event.ts";
import { isEventId, SlackInbox, type SlackInboxEntry } from "./slack_inbox.ts";
import type { SlackState } from "./slack_state.ts";
import { EntryQueue, untilAborted } from "../chat/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { sendSlackHeld } from "./send_held.ts";

const log = logger("slack");

/** The longest wait between two tries to reach an agent's endpoint that does not answer. */
const MAX_REACH_RETRY_MS = 30_000;

/** What carrying a Slack connection needs. */
export interface CarrySlackOptions {
  account: SlackAccount;
  /** The connection's folder: the inbox of kept events and the answered ones. */
  stateDir: string;
  /** The owner's Slack member id (`U…`). */
  ownerId: string;
  /** The channels shared and members admitted besides the owner (`[access] message`); none, the owner alone. */
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock?: Clock;
  signal: AbortSignal;
  onState?: (state: SlackState) => void;
}

type Queued = { eventId: string; entry: SlackInboxEntry };

/**
 * Carries a Slack connection until `signal` aborts: holds one Socket Mode connection, keeps each
 * event in the inbox before its envelope is acked, and answers them in order, one at a time
 * (CON-9). An event Slack sends again is acked and answered once; events kept and not answered
 * before a crash are answered first. A bot or app-level token Slack refuses says "failed" and
 * carries nothing more (an event it could not answer stays kept); it still returns only when
 * `signal` aborts. With `access`, shared channels and allowlisted members are answered as
 * themselves (ACS-1, CON-7, CON-8). Meanwhile the answers the bridge holds for the connection go
 * to the owner's DM or a kept channel (sendSlackHeld).
 */
export async function carrySlack(options: CarrySlackOptions): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const inbox = await SlackInbox.open(options.stateDir);
  const halt = new AbortController();
  const signal = AbortSignal.any([options.signal, halt.signal]);
  const ctx: AnswerEventContext = { ...options, web: slackWebClient(options.account), inbox, clock, signal };
  const queue = new EntryQueue<Queued>();
  for (const item of await inbox.pending()) queue.push(item);
  const delivering = sendSlackHeld({ ...options, web: ctx.web, clock, signal }).catch((err) => {
    if (!signal.aborted) log.error("Held answers are no longer sent", { err });
  });
  const answering = answerAll(ctx, queue).then((ended) => {
    if (ended !== "refused") return;
    log.error("Cannot carry Slack: Slack refused the bot token");
    options.onState?.({
      state: "failed",
      why: "Slack refused the bot token: it may have been revoked",
      at: clock.now(),
    });
    halt.abort();
  });
  try {
    const ended = await receiveEvents({
      account: options.account,
      clock,
      signal,
      onState: (state) => options.onState?.(state),
      async keep(raw, envelope) {
        const payload = SlackEventPayload.safeParse(raw);
        if (!payload.success || !isEventId(payload.data.event_id)) {
          log.info("Dropped a Slack envelope that holds no event Link reads");
          return;
        }
        const eventId = payload.data.event_id;
        if (inbox.has(eventId)) {
          log.info("Acked a Slack event sent again, answered once", {
            event: eventId,
            retry: envelope.retryNum,
          });
          return;
        }
        queue.push({ eventId, entry: await inbox.keep(eventId, payload.data.event, payload.data.team_id) });
      },
    });
    if (ended === "failed" || halt.signal.aborted) await untilAborted(options.signal);
  } finally {
    queue.close();
    await answering;
    await delivering;
  }
}

/**
 * Answers each queued event in turn; one whose endpoint does not answer is tried again, in place.
 * A bot token Slack refuses ends it ("refused"), the event left kept.
 */
async function answerAll(ctx: AnswerEventContext, queue: EntryQueue<Queued>): Promise<"stopped" | "refused"> {
  for await (const { eventId, entry } of queue) {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await answerEvent(ctx, eventId, entry);
        break;
      } catch (err) {
        if (ctx.signal.aborted) break;
        if (isTokenRefused(err)) return "refused";
        log.warn("Cannot answer a Slack message yet, trying again", { event: eventId, err, attempt });
        await ctx.clock.sleep(Math.min(MAX_REACH_RETRY_MS, 1000 * 2 ** attempt), ctx.signal).catch(() => {});
      }
    }
  }
  return "stopped";
}
