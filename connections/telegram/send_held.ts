import { type Api, GrammyError } from "grammy";
import { type Clock, logger } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { heldGroup, sendHeldAnswers } from "../chat/mod.ts";
import { splitAnswer } from "./split_answer.ts";
import { reasonOf, type TelegramAccount } from "./telegram_account.ts";

const log = logger("telegram");

/** What sending the held answers needs. */
export interface SendHeldOptions {
  api: Api;
  account: TelegramAccount;
  /** The connection's folder; the bridge holds answers in its `held/` (the way in's). */
  stateDir: string;
  ownerId: number;
  access?: ChatAccess;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Sends the answers the bridge holds for this connection (a message the agent sent on its way in,
 * a reminder) to the owner's own private chat, or to the group its thread names when that group is
 * kept (an allowed person talked to the agent there) and still shared, never to another chat the
 * harness names (SCH-3), each once, until `signal` aborts.
 */
export function sendTelegramHeld(options: SendHeldOptions): Promise<void> {
  return sendHeldAnswers({
    connection: "telegram",
    stateDir: options.stateDir,
    clock: options.clock,
    signal: options.signal,
    async send(held) {
      const group = await heldGroup(options.stateDir, held.thread, options.access);
      const chatId = group ? Number(group.chat) : options.ownerId;
      for (const part of splitAnswer(held.text)) await sendOne(options, chatId, part);
      log.info(group ? "Sent a held answer to its group" : "Sent a held answer to the owner", {
        thread: held.thread,
      });
    },
  });
}

/** Sends one message, waiting out a 429's retry_after. */
async function sendOne(options: SendHeldOptions, chatId: number, text: string): Promise<void> {
  for (;;) {
    try {
      await options.api.sendMessage(chatId, text);
      return;
    } catch (err) {
      if (!(err instanceof GrammyError) || err.error_code !== 429 || options.signal.aborted) {
        throw new Error(`Cannot send a held answer: ${reasonOf(options.account, err)}`);
      }
      await options.clock.sleep((err.parameters.retry_after ?? 1) * 1000, options.signal);
    }
  }
}
