import { type Clock, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import type { AskCaller, EndpointAddress } from "../mod.ts";
import { EntryQueue, untilAborted } from "../chat/mod.ts";
import { answerMessage, type AnswerMessageContext } from "./answer_message.ts";
import { checkDiscordToken } from "./check_discord_token.ts";
import { type DiscordAccount, discordRest, isTokenRefused, reasonOf } from "./discord_account.ts";
import { catchUp } from "./catch_up.ts";
import { DiscordInbox, type DiscordInboxEntry } from "./discord_inbox.ts";
import type { DiscordState } from "./discord_state.ts";
import { DiscordMessage } from "./discord_message.ts";
import { receiveGateway } from "./receive_gateway.ts";
import { sendDiscordHeld } from "./send_held.ts";

const log = logger("discord");

/** The longest wait between two tries to reach an agent's endpoint that does not answer. */
const MAX_REACH_RETRY_MS = 30_000;
const NOBODY: ChatAccess = { chats: new Set(), persons: new Set() };

/** What carrying a Discord connection needs. */
export interface CarryDiscordOptions {
  account: DiscordAccount;
  /** The connection's folder: the inbox, the answered messages, the session, the kept chats. */
  stateDir: string;
  /** The owner's Discord user id. */
  ownerId: string;
  /** Who is answered besides the owner: `[access] message`'s chats and persons of `discord`. */
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock?: Clock;
  signal: AbortSignal;
  onState?: (state: DiscordState) => void;
}

type Queued = { messageId: string; entry: DiscordInboxEntry };

/**
 * Carries a Discord connection until `signal` aborts: holds one gateway connection, keeps each
 * MESSAGE_CREATE in the inbox before it is answered, and answers them in order, one at a time
 * (CON-9). A message replayed after a RESUME is answered once; messages kept and not answered
 * before a crash are answered first. A token Discord refuses says "failed" and carries nothing
 * more (a message it could not answer stays kept); it still returns only when `signal` aborts.
 * Meanwhile the answers the bridge holds go to the owner's DM or a kept chat (sendDiscordHeld).
 */
export async function carryDiscord(options: CarryDiscordOptions): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const inbox = await DiscordInbox.open(options.stateDir);
  const halt = new AbortController();
  const signal = AbortSignal.any([options.signal, halt.signal]);
  const rest = discordRest(options.account);
  const bot = Promise.withResolvers<string>();
  let botKnown = false;
  let ownId: string | undefined;
  const named = (id: string | undefined) => {
    if (id === undefined || botKnown) return;
    botKnown = true;
    ownId = id;
    bot.resolve(id);
  };
  const queue = new EntryQueue<Queued>();
  for (const item of await inbox.pending()) queue.push(item);
  const failed = (why: string) => {
    if (halt.signal.aborted) return;
    log.error("Cannot carry Discord: Discord refused the token");
    options.onState?.({ state: "failed", why, at: clock.now() });
    halt.abort();
  };
  const context = { ...options, access: options.access ?? NOBODY, rest, inbox, clock, signal };
  const answering = Promise.race([bot.promise, untilAborted(signal)]).then(async (botId) => {
    if (botId === undefined) return;
    if ((await answerAll({ ...context, botId }, queue)) === "refused") {
      failed("Discord refused the token: it may have been revoked or reset");
    }
  });
  const delivering = sendDiscordHeld({ ...options, access: context.access, rest, clock, signal }).catch(
    (err) => {
      if (!signal.aborted) log.error("Held answers are no longer sent", { err });
    },
  );
  // One message kept at a time, from the gateway or a catch-up, so none is kept twice.
  let keeping = Promise.resolve();
  const keepOne = async (raw: unknown) => {
    const message = DiscordMessage.safeParse(raw);
    if (!message.success) return log.info("Dropped a Discord message Link cannot read");
    const messageId = message.data.id;
    // The bot hears its own messages: never kept, never a line of the log.
    if (message.data.author.bot === true && message.data.author.id === ownId) return;
    if (inbox.has(messageId)) {
      return log.info("A Discord message replayed, answered once", { message: messageId });
    }
    queue.push({ messageId, entry: await inbox.keep(messageId, raw) });
  };
  const keep = (raw: unknown) => {
    const next = keeping.then(() => keepOne(raw));
    keeping = next.catch(() => {});
    return next;
  };
  const catchingUp: Promise<unknown>[] = [];
  try {
    const ended = await receiveGateway({
      account: options.account,
      stateDir: options.stateDir,
      clock,
      signal,
      onState: (state) => state.state === "failed" ? failed(state.why ?? "") : options.onState?.(state),
      onReady: (me) => {
        named(me.id);
        // A new session: Discord replays nothing of what came while none was live.
        catchingUp.push(
          catchUp({
            ...options,
            access: context.access,
            rest,
            botId: me.id,
            seen: (id) => inbox.has(id),
            keep,
          })
            .catch((err) => log.warn("Cannot catch up on Discord", { err: reasonOf(options.account, err) })),
        );
      },
      // A carrier started again resumes the session it kept, and Discord sends no READY then.
      onResumed: () => {
        if (!botKnown) void botIdOf(options.account).then(named);
      },
      keep,
    });
    if (ended === "failed" || halt.signal.aborted) await untilAborted(options.signal);
  } finally {
    await Promise.all(catchingUp);
    await keeping;
    queue.close();
    halt.abort();
    await answering;
    await delivering;
  }
}

/**
 * Answers each queued message in turn; one whose endpoint does not answer is tried again, in place.
 * A token Discord refuses ends it ("refused"), the message left kept.
 */
async function answerAll(
  ctx: AnswerMessageContext,
  queue: EntryQueue<Queued>,
): Promise<"stopped" | "refused"> {
  for await (const { messageId, entry } of queue) {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await answerMessage(ctx, messageId, entry);
        break;
      } catch (err) {
        if (ctx.signal.aborted) break;
        if (isTokenRefused(err)) return "refused";
        log.warn("Cannot answer a Discord message yet, trying again", { message: messageId, err, attempt });
        await ctx.clock.sleep(Math.min(MAX_REACH_RETRY_MS, 1000 * 2 ** attempt), ctx.signal).catch(() => {});
      }
    }
  }
  return "stopped";
}

/** The bot's id from users/@me; undefined when Discord cannot say now (the next resume asks again). */
async function botIdOf(account: DiscordAccount): Promise<string | undefined> {
  try {
    return (await checkDiscordToken(account)).id;
  } catch (err) {
    log.warn("Cannot tell which bot the token is: answering waits for the next resume", {
      err: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}
