import type { Api } from "grammy";
import { type Clock, isLinkError, logger } from "../../core/base/mod.ts";
import {
  type AskCaller,
  type EndpointAddress,
  openEndpoint,
  type ProvenEndpoint,
} from "../endpoint/ask_for.ts";
import { ackKept, listKept } from "../link/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { answerSent, keepGroup, messageDropped, promptAgent } from "../chat/mod.ts";
import { AnswerStream, keepTyping } from "./answer_stream.ts";
import { finishEntry, type InboxEntry, keepEntry } from "./inbox.ts";
import type { TelegramAccount } from "./telegram_account.ts";
import { askerOf, isSharedGroup, type TelegramAsker, type TelegramBotIdentity } from "./telegram_audience.ts";
import { type TelegramMessage, TelegramUpdate } from "./telegram_update.ts";

const log = logger("telegram");

/** The reply to a message with no text (a photo, a sticker). */
export const ONLY_TEXT_REPLY = "I read only text messages. Send your message as text, please.";

/** What answering an update needs: the client, the connection's folder, the owner and the endpoint. */
export interface AnswerContext {
  api: Api;
  account: TelegramAccount;
  stateDir: string;
  ownerId: number;
  /** The chats and people shared besides the owner; none, the owner alone. */
  access?: ChatAccess;
  /** The bot's identity, asked of Telegram when a shared group's message first needs it. */
  bot(): Promise<TelegramBotIdentity>;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Answers one kept update, then lets its entry go. The owner's private chat, an admitted person's
 * private chat, and a person's mention of the bot (or reply to it) in a shared group go to the
 * agent, as a new `session/prompt` in session `telegram:<chat id>` (CON-9, CON-10), a person
 * other than the owner with `from` = `person:telegram:<user id>` (CON-7); anything else is dropped.
 * An answer already whole (kept in the entry, or kept by the harness for this request) is sent
 * instead of asking again, into the messages it was already in. Throws only when the endpoint (or,
 * for a shared group, Telegram's getMe) cannot be reached.
 */
export async function answerUpdate(ctx: AnswerContext, updateId: number, entry: InboxEntry): Promise<void> {
  const parsed = TelegramUpdate.safeParse(entry.update);
  const message = parsed.success ? parsed.data.message : undefined;
  const asker = message ? await askerFor(ctx, message) : undefined;
  if (!message) {
    const kinds = Object.keys(entry.update ?? {}).filter((k) => k !== "update_id");
    messageDropped(updateId, `an update that is not a new message (${kinds.join(", ")})`);
  } else if (!asker) {
    messageDropped(updateId, "a message from someone the connection does not answer there");
    log.debug("Dropped a message from someone the connection does not answer there", {
      update: updateId,
      chat: message.chat.id,
      chatType: message.chat.type,
      sender: message.from?.id,
      bot: message.from?.is_bot,
    });
  } else {
    if (asker.inGroup) {
      await keepGroup(ctx.stateDir, { thread: `telegram:${asker.chatId}`, chat: String(asker.chatId) });
    }
    if (message.text === undefined) {
      log.info("Answered a message with no text: only text is read", { update: updateId });
      answerSent(updateId, await deliver(ctx, updateId, { ...entry, answer: ONLY_TEXT_REPLY }, asker.chatId));
    } else answerSent(updateId, await ask(ctx, updateId, entry, { ...asker, text: message.text }));
  }
  await finishEntry(ctx.stateDir, updateId);
}

/** Who asks in a message, if anyone the connection answers; the bot's identity only for a shared group. */
async function askerFor(ctx: AnswerContext, message: TelegramMessage): Promise<TelegramAsker | undefined> {
  const bot = isSharedGroup(message, ctx.access) ? await ctx.bot() : undefined;
  return askerOf(message, { ownerId: ctx.ownerId, access: ctx.access, bot });
}

async function ask(
  ctx: AnswerContext,
  updateId: number,
  entry: InboxEntry,
  message: { chatId: number; text: string; from?: string },
): Promise<readonly number[]> {
  if (entry.answer !== undefined) return await deliver(ctx, updateId, entry, message.chatId);
  const thread = `telegram:${message.chatId}`;
  const request = `telegram:${updateId}`;
  await using endpoint = await openEndpoint(ctx.endpoint, ctx.caller);
  const kept = (await listKept(endpoint, thread)).find((k) => k.requests.includes(request));
  if (kept) {
    log.info("Sending an answer the agent kept from before a restart", { update: updateId });
    const whole = { ...entry, answer: kept.answer };
    await keepEntry(ctx.stateDir, updateId, whole);
    await ackKept(endpoint, [kept.id]);
    return await deliver(ctx, updateId, whole, message.chatId);
  }
  const current = { ...entry };
  const stream = new AnswerStream({
    ...streamTo(ctx, message.chatId, current.sent),
    onSent: async (sent) => {
      current.sent = [...sent];
      await keepEntry(ctx.stateDir, updateId, current);
    },
  });
  current.answer = await prompt(ctx, endpoint, { ...message, thread, request, stream }).catch((err) => {
    // The harness refused the message itself (longer than the model's context, no text): asking
    // again would be refused again, so its words are the answer, sent once.
    if (!isLinkError(err, "REFUSED") && !isLinkError(err, "INVALID")) throw err;
    log.info("The agent refused a message", { update: updateId, code: err.code });
    return err.message;
  });
  await keepEntry(ctx.stateDir, updateId, current);
  await stream.finish(current.answer);
  return current.sent;
}

/** Sends one message to the agent, streaming its answer; resolves with the whole answer. */
async function prompt(
  ctx: AnswerContext,
  endpoint: ProvenEndpoint,
  options: {
    chatId: number;
    thread: string;
    request: string;
    text: string;
    from?: string;
    stream: AnswerStream;
  },
): Promise<string> {
  const typing = new AbortController();
  const typed = keepTyping({ ...ctx, chatId: options.chatId, signal: anySignal(ctx, typing) });
  try {
    return await promptAgent(endpoint, { ...options, onText: (text) => options.stream.push(text) });
  } finally {
    typing.abort();
    await typed;
  }
}

/**
 * Sends an answer already whole into the messages it is already in, then more as needed; resolves
 * with the ids of the messages it is in.
 */
async function deliver(
  ctx: AnswerContext,
  updateId: number,
  entry: InboxEntry,
  chatId: number,
): Promise<readonly number[]> {
  const current = { ...entry };
  const stream = new AnswerStream({
    ...streamTo(ctx, chatId, entry.sent),
    onSent: async (sent) => {
      current.sent = [...sent];
      await keepEntry(ctx.stateDir, updateId, current);
    },
  });
  await stream.finish(entry.answer ?? "");
  return current.sent;
}

function streamTo(ctx: AnswerContext, chatId: number, sent: readonly number[]) {
  return { api: ctx.api, account: ctx.account, chatId, clock: ctx.clock, signal: ctx.signal, sent };
}

function anySignal(ctx: AnswerContext, own: AbortController): AbortSignal {
  return AbortSignal.any([ctx.signal, own.signal]);
}
