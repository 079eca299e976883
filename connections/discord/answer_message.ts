import type { REST } from "@discordjs/rest";
import { type Clock, isLinkError, logger } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { type AskCaller, type EndpointAddress, openEndpoint, type ProvenEndpoint } from "../mod.ts";
import { ackKept, listKept } from "../link/mod.ts";
import { answerSent, keepGroup, messageDropped, promptAgent } from "../chat/mod.ts";
import { DiscordAnswerStream, keepTyping } from "./answer_stream.ts";
import type { DiscordAccount } from "./discord_account.ts";
import type { DiscordInbox, DiscordInboxEntry } from "./discord_inbox.ts";
import { DiscordMessage, hasNoText } from "./discord_message.ts";
import { routeMessage } from "./route_message.ts";

const log = logger("discord");

/** The reply to a message with no text (a file, a sticker), as Telegram's. */
export const ONLY_TEXT_REPLY = "I read only text messages. Send your message as text, please.";

/** What answering a message needs: the client, the inbox, who is answered, and the endpoint. */
export interface AnswerMessageContext {
  rest: REST;
  account: DiscordAccount;
  stateDir: string;
  inbox: DiscordInbox;
  botId: string;
  ownerId: string;
  access: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Answers one kept message, then lets it go. A message routeMessage sends goes to the agent as a
 * new `session/prompt` in session `discord:<channel id>` with request `discord:<message id>`
 * (CON-9, CON-10), `from` its writer when not the owner (ACS-3), with typing shown while it is
 * answered; an answer already whole (kept in the entry, or by the harness for this request) is
 * sent instead of asking again. Throws only when the endpoint cannot be reached.
 */
export async function answerMessage(
  ctx: AnswerMessageContext,
  messageId: string,
  entry: DiscordInboxEntry,
): Promise<void> {
  const parsed = DiscordMessage.safeParse(entry.message);
  const route = parsed.success ? routeMessage(parsed.data, ctx) : { dropped: "not a message Link reads" };
  if ("dropped" in route) {
    messageDropped(messageId, route.dropped);
  } else {
    const message = parsed.data!;
    if (route.chat) await keepGroup(ctx.stateDir, { thread: route.thread, chat: route.chat });
    if (hasNoText(message, route.text) && entry.answer === undefined) {
      log.info("Answered a message with no text: only text is read", { message: messageId });
      entry = { ...entry, answer: ONLY_TEXT_REPLY };
      await ctx.inbox.save(messageId, entry);
    }
    answerSent(
      messageId,
      await ask(ctx, messageId, entry, { ...route, channelId: message.channel_id }),
    );
  }
  await ctx.inbox.finish(messageId);
}

interface Asked {
  channelId: string;
  thread: string;
  from?: string;
  text: string;
}

/** Asks the agent and sends its answer; resolves with the ids of the messages it went out in. */
async function ask(
  ctx: AnswerMessageContext,
  messageId: string,
  entry: DiscordInboxEntry,
  asked: Asked,
): Promise<readonly string[]> {
  const current = { ...entry };
  const stream = new DiscordAnswerStream({
    ...ctx,
    channelId: asked.channelId,
    sent: entry.sent,
    nonceOf: messageId,
    onSent: async (sent) => {
      current.sent = [...sent];
      await ctx.inbox.save(messageId, current);
    },
  });
  if (entry.answer !== undefined) {
    await stream.finish(entry.answer);
    return current.sent;
  }
  const request = `discord:${messageId}`;
  await using endpoint = await openEndpoint(ctx.endpoint, ctx.caller);
  const kept = (await listKept(endpoint, asked.thread)).find((k) => k.requests.includes(request));
  if (kept) {
    log.info("Sending an answer the agent kept from before a restart", { message: messageId });
    current.answer = kept.answer;
    await ctx.inbox.save(messageId, current);
    await ackKept(endpoint, [kept.id]);
    await stream.finish(kept.answer);
    return current.sent;
  }
  current.answer = await prompt(ctx, endpoint, { ...asked, request, stream }).catch((err) => {
    // The harness refused the message itself: asking again would be refused again, so its words
    // are the answer, sent once.
    if (!isLinkError(err, "REFUSED") && !isLinkError(err, "INVALID")) throw err;
    log.info("The agent refused a message", { message: messageId, code: err.code });
    return err.message;
  });
  await ctx.inbox.save(messageId, current);
  await stream.finish(current.answer);
  return current.sent;
}

/** Sends one message to the agent with typing shown, streaming its answer; resolves with the whole answer. */
async function prompt(
  ctx: AnswerMessageContext,
  endpoint: ProvenEndpoint,
  asked: Asked & { request: string; stream: DiscordAnswerStream },
): Promise<string> {
  const typing = new AbortController();
  const signal = AbortSignal.any([ctx.signal, typing.signal]);
  const typed = keepTyping({ ...ctx, channelId: asked.channelId, signal });
  try {
    return await promptAgent(endpoint, {
      thread: asked.thread,
      request: asked.request,
      text: asked.text,
      ...(asked.from ? { from: asked.from } : {}),
      onText: (text) => asked.stream.push(text),
    });
  } finally {
    typing.abort();
    await typed;
  }
}
