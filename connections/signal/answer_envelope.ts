import { type Clock, isLinkError, logger } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { type AskCaller, type EndpointAddress, openEndpoint } from "../mod.ts";
import { ackKept, listKept } from "../link/mod.ts";
import { answerSent, messageDropped, promptAgent, splitAnswer } from "../chat/mod.ts";
import { type Addressee, addresseeOf, type SignalOwner } from "./addressee.ts";
import { reasonOf, type SignalAccount, signalRpc } from "./signal_account.ts";
import { isWithoutText, SignalEnvelope } from "./signal_envelope.ts";
import type { SignalInbox, SignalInboxEntry } from "./signal_inbox.ts";

const log = logger("signal");

/** The longest message Link sends to Signal, in characters: past it an answer is split (CON-13). */
export const SIGNAL_LIMIT = 2000;
/** How often typing is shown again while a turn runs: Signal's apps drop it after 15 s. */
export const TYPING_EVERY_MS = 10_000;
/** The reply to a message with no text (an attachment, a sticker). */
export const ONLY_TEXT_REPLY = "I read only text messages. Send your message as text, please.";

/** What answering an envelope needs: the daemon, the inbox, who is answered and the endpoint. */
export interface AnswerContext {
  account: SignalAccount;
  inbox: SignalInbox;
  owner: SignalOwner;
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock: Clock;
  signal: AbortSignal;
  /** Called when the daemon says Signal no longer knows the account: the carrier stops. */
  onDeregistered(): void;
}

/**
 * Answers one kept envelope, then lets it go. The owner's direct text goes to the agent as a new
 * `session/prompt` in session `signal:<owner number>` with request `signal:<source>:<timestamp>`
 * (CON-9, CON-10), a person's in `[access] message` with `Link-From`; typing shows while the turn
 * runs, and the whole answer is sent at the end, split at 2,000. An answer already whole (kept in
 * the entry, or by the harness for this request) is sent instead of asking again, from the first
 * part not yet sent. `entry` is kept up to date, so a retry goes on where this one stopped.
 * Throws when the endpoint or the daemon cannot be reached.
 */
export async function answerEnvelope(
  ctx: AnswerContext,
  key: string,
  entry: SignalInboxEntry,
): Promise<void> {
  const parsed = SignalEnvelope.safeParse(entry.envelope);
  const envelope = parsed.success ? parsed.data : undefined;
  const to = envelope && await addresseeOf(envelope, ctx);
  const data = envelope?.dataMessage;
  if (!envelope || !to || !data) {
    messageDropped(key, "an envelope the connection does not answer");
  } else if (entry.answer === undefined && isWithoutText(data)) {
    log.info("Answered a Signal message with no text: only text is read", { envelope: key });
    entry.answer = ONLY_TEXT_REPLY;
    await ctx.inbox.save(key, entry);
  } else if (entry.answer === undefined && data.message?.trim()) {
    await ask(ctx, key, entry, { to, text: data.message, timestamp: envelope.timestamp });
  } else if (entry.answer === undefined) {
    messageDropped(key, "a message with nothing to read");
  }
  if (to && entry.answer !== undefined) {
    await deliver(ctx, key, entry, to.recipient);
    answerSent(key, entry.sent);
  }
  await ctx.inbox.finish(key);
}

async function ask(
  ctx: AnswerContext,
  key: string,
  entry: SignalInboxEntry,
  message: { to: Addressee; text: string; timestamp: number },
): Promise<void> {
  const { thread, from } = message.to;
  const request = `signal:${message.to.source}:${message.timestamp}`;
  await using endpoint = await openEndpoint(ctx.endpoint, ctx.caller);
  const kept = (await listKept(endpoint, thread)).find((k) => k.requests.includes(request));
  if (kept) {
    log.info("Sending an answer the agent kept from before a restart", { envelope: key });
    entry.answer = kept.answer;
    await ctx.inbox.save(key, entry);
    await ackKept(endpoint, [kept.id]);
    return;
  }
  const typing = new AbortController();
  const typed = keepTyping(ctx, message.to.recipient, AbortSignal.any([ctx.signal, typing.signal]));
  try {
    entry.answer = await promptAgent(endpoint, {
      thread,
      request,
      text: message.text,
      from,
      onText: () => {},
    })
      .catch((err) => {
        // The harness refused the message itself: asking again would be refused again, so its
        // words are the answer, sent once.
        if (!isLinkError(err, "REFUSED") && !isLinkError(err, "INVALID")) throw err;
        log.info("The agent refused a message", { envelope: key, code: err.code });
        return err.message;
      });
  } finally {
    typing.abort();
    await typed;
  }
  await ctx.inbox.save(key, entry);
}

/** Sends the whole answer from the first part not yet sent, keeping how far it got after each. */
async function deliver(
  ctx: AnswerContext,
  key: string,
  entry: SignalInboxEntry,
  recipient: string,
): Promise<void> {
  const answer = entry.answer ?? "";
  if (!answer.trim()) return;
  const parts = splitAnswer(answer, SIGNAL_LIMIT);
  for (let i = entry.sent; i < parts.length; i++) {
    ctx.signal.throwIfAborted();
    await signalRpc(ctx.account, "send", { params: { recipient: [recipient], message: parts[i] } });
    entry.sent = i + 1;
    await ctx.inbox.save(key, entry);
  }
}

/** Shows typing to `recipient` until `signal` aborts, then takes it off. */
async function keepTyping(ctx: AnswerContext, recipient: string, signal: AbortSignal): Promise<void> {
  const typing = async (stop: boolean) => {
    await signalRpc(ctx.account, "sendTyping", {
      params: { recipient: [recipient], ...(stop ? { stop } : {}) },
    })
      .catch((err) => log.debug("Cannot show typing", { err: reasonOf(err) }));
  };
  while (!signal.aborted) {
    await typing(false);
    await ctx.clock.sleep(TYPING_EVERY_MS, signal).catch(() => {});
  }
  if (!ctx.signal.aborted) await typing(true);
}
