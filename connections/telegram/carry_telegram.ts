import { type Clock, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { AskCaller, EndpointAddress } from "../endpoint/ask_for.ts";
import { type AnswerContext, answerUpdate } from "./answer_update.ts";
import { type InboxEntry, keepEntry, pendingEntries } from "./inbox.ts";
import { EntryQueue, messageReceived, untilAborted } from "../chat/mod.ts";
import { pollUpdates } from "./poll_updates.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { sendTelegramHeld } from "./send_held.ts";
import { botIdentity } from "./telegram_audience.ts";
import { type TelegramAccount, telegramApi } from "./telegram_account.ts";
import type { TelegramState } from "./telegram_state.ts";

const log = logger("telegram");

/** The longest wait between two tries to reach an agent's endpoint that does not answer. */
const MAX_REACH_RETRY_MS = 30_000;

/** What carrying a Telegram connection needs. */
export interface CarryTelegramOptions {
  account: TelegramAccount;
  /** The connection's folder: the offset and the inbox of kept updates. */
  stateDir: string;
  ownerId: number;
  /** The groups shared and people admitted besides the owner (`[access] message`); none, the owner alone. */
  access?: ChatAccess;
  endpoint: EndpointAddress;
  caller: AskCaller;
  clock?: Clock;
  signal: AbortSignal;
  onState?: (state: TelegramState) => void;
}

/**
 * Carries a Telegram connection until `signal` aborts: polls the bot's updates, keeps each in the
 * inbox before confirming it, and answers them in order, one at a time (CON-9). Updates kept and
 * not answered before a crash are answered first, once. A token Telegram refuses says "failed"
 * and carries nothing more; it still returns only when `signal` aborts. With `access`, shared
 * groups and admitted people are answered as themselves (ACS-1, CON-7). Meanwhile the answers the
 * bridge holds for the connection go to the owner's own chat or a kept group (sendTelegramHeld).
 */
export async function carryTelegram(options: CarryTelegramOptions): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const api = telegramApi(options.account);
  const ctx: AnswerContext = { ...options, api, clock, bot: botIdentity(api) };
  const queue = new EntryQueue<{ updateId: number; entry: InboxEntry }>();
  const known = new Set<number>();
  for (const { updateId, entry } of await pendingEntries(options.stateDir)) {
    known.add(updateId);
    queue.push({ updateId, entry });
  }
  const answering = answerAll(ctx, queue);
  const delivering = sendTelegramHeld({ ...options, api, clock }).catch((err) => {
    if (!options.signal.aborted) log.error("Held answers are no longer sent", { err });
  });
  try {
    const ended = await pollUpdates({
      api,
      account: options.account,
      stateDir: options.stateDir,
      clock,
      signal: options.signal,
      onState: (state) => options.onState?.(state),
      async keep(updateId, update) {
        if (known.has(updateId)) return; // kept before a crash that came before its offset was saved
        known.add(updateId);
        const entry: InboxEntry = { update, sent: [] };
        await keepEntry(options.stateDir, updateId, entry);
        messageReceived(updateId);
        queue.push({ updateId, entry });
      },
    });
    if (ended === "failed") await untilAborted(options.signal);
  } finally {
    queue.close();
    await answering;
    await delivering;
  }
}

/** Answers each queued update in turn; one whose endpoint does not answer is tried again, in place. */
async function answerAll(
  ctx: AnswerContext,
  queue: EntryQueue<{ updateId: number; entry: InboxEntry }>,
): Promise<void> {
  for await (const { updateId, entry } of queue) {
    for (let attempt = 0; !ctx.signal.aborted; attempt++) {
      try {
        await answerUpdate(ctx, updateId, entry);
        break;
      } catch (err) {
        if (ctx.signal.aborted) break;
        log.warn("Cannot answer a Telegram message yet, trying again", { update: updateId, err, attempt });
        await ctx.clock.sleep(Math.min(MAX_REACH_RETRY_MS, 1000 * 2 ** attempt), ctx.signal).catch(() => {});
      }
    }
  }
}
