import type { WebClient } from "@slack/web-api";
import { type Clock, logger } from "../../core/base/mod.ts";
import { type AskCaller, type EndpointAddress, openEndpoint } from "../mod.ts";
import { ackKept, listKept } from "../link/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { answerSent, keepGroup, messageDropped, promptAgent } from "../chat/mod.ts";
import { SlackAnswerStream } from "./answer_stream.ts";
import { reasonOf, type SlackAccount, slackErrorOf } from "./slack_account.ts";
import { isAddressedThread, keepAddressedThread } from "./addressed_threads.ts";
import { askerOf, type SlackAsker } from "./slack_audience.ts";
import { SlackMessageEvent } from "./slack_event.ts";
import type { SlackInbox, SlackInboxEntry } from "./slack_inbox.ts";

const log = logger("slack");

/** The reaction on the owner's message while it is answered: Slack shows no bot typing (CON-13). */
export const ANSWERING_REACTION = "eyes";

/** What answering an event needs: the client, the inbox, the owner and the endpoint. */
export interface AnswerEventContext {
  web: WebClient;
  account: SlackAccount;
  inbox: SlackInbox;
  ownerId: string;
  /** The channels shared and members admitted besides the owner; none, the owner alone. */
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Answers one kept event, then lets it go. The owner's DMs, an allowlisted member's DMs and a
 * person's mention of the app in a shared channel go to the agent, as a new `session/prompt` in
 * session `slack:<channel id>` with request `slack:<event_id>` (CON-9, CON-10), anyone but the
 * owner with `from` = `person:slack:<team>:<user>` (CON-7, CON-8), with 👀 on the message while it
 * is answered; anything else is dropped. An answer already whole (kept in the entry, or by the
 * harness for this request) is posted instead of asking again. Throws only when the endpoint
 * cannot be reached.
 */
export async function answerEvent(
  ctx: AnswerEventContext,
  eventId: string,
  entry: SlackInboxEntry,
): Promise<void> {
  const parsed = SlackMessageEvent.safeParse(entry.event);
  const event = parsed.success ? parsed.data : undefined;
  const stateDir = ctx.inbox.stateDir;
  const inAddressedThread = event?.thread_ts !== undefined && event.channel !== undefined &&
    event.ts !== undefined &&
    await isAddressedThread(stateDir, event.channel, { threadTs: event.thread_ts, ts: event.ts });
  const who = { ownerId: ctx.ownerId, access: ctx.access, team: entry.team, inAddressedThread };
  const asker = event ? askerOf(event, { ...who, botUserId: ctx.account.botUserId }) : undefined;
  if (!event || !asker) {
    messageDropped(eventId, "an event the connection does not answer");
    log.debug("Dropped a Slack event the connection does not answer", {
      event: eventId,
      type: event?.type,
      channelType: event?.channel_type,
      subtype: event?.subtype,
      sender: event?.user,
      bot: event?.bot_id,
    });
  } else {
    if (asker.chat) {
      await keepGroup(stateDir, { thread: `slack:${asker.channel}`, chat: asker.chat });
      // A reply in the thread under a mention is for the app too.
      const threadTs = asker.threadTs ?? event.ts;
      if (threadTs !== undefined && event.ts !== undefined) {
        await keepAddressedThread(stateDir, asker.channel, { threadTs, since: event.ts });
      }
    }
    const message = { ...asker, ts: event.ts, text: event.text! };
    await react(ctx, "add", message);
    const sent = await ask(ctx, eventId, entry, message);
    await react(ctx, "remove", message);
    answerSent(eventId, sent);
  }
  await ctx.inbox.finish(eventId);
}

async function ask(
  ctx: AnswerEventContext,
  eventId: string,
  entry: SlackInboxEntry,
  message: SlackAsker & { text: string },
): Promise<readonly string[]> {
  const current = { ...entry };
  const stream = new SlackAnswerStream({
    web: ctx.web,
    account: ctx.account,
    channel: message.channel,
    threadTs: message.threadTs,
    clock: ctx.clock,
    signal: ctx.signal,
    sent: entry.sent,
    onSent: async (sent) => {
      current.sent = [...sent];
      await ctx.inbox.save(eventId, current);
    },
  });
  if (entry.answer !== undefined) {
    await stream.finish(entry.answer);
    return current.sent;
  }
  const thread = `slack:${message.channel}`;
  const request = `slack:${eventId}`;
  await using endpoint = await openEndpoint(ctx.endpoint, ctx.caller);
  const kept = (await listKept(endpoint, thread)).find((k) => k.requests.includes(request));
  if (kept) {
    log.info("Posting an answer the agent kept from before a restart", { event: eventId });
    current.answer = kept.answer;
    await ctx.inbox.save(eventId, current);
    await ackKept(endpoint, [kept.id]);
    await stream.finish(kept.answer);
    return current.sent;
  }
  current.answer = await promptAgent(endpoint, {
    thread,
    request,
    text: message.text,
    from: message.from,
    onText: (text) => stream.push(text),
  });
  await ctx.inbox.save(eventId, current);
  await stream.finish(current.answer);
  return current.sent;
}

/** Puts 👀 on the owner's message, or takes it off; one already there (or gone) is no failure. */
async function react(
  ctx: AnswerEventContext,
  how: "add" | "remove",
  message: { channel: string; ts?: string },
): Promise<void> {
  if (message.ts === undefined) return;
  const args = { channel: message.channel, timestamp: message.ts, name: ANSWERING_REACTION };
  try {
    await (how === "add" ? ctx.web.reactions.add(args) : ctx.web.reactions.remove(args));
  } catch (err) {
    const { error } = slackErrorOf(err);
    if (error === "already_reacted" || error === "no_reaction") return;
    log.warn(`Cannot ${how} the answering reaction`, { err: reasonOf(ctx.account, err) });
  }
}
