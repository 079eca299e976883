import type { WebClient } from "@slack/web-api";
import { type Clock, logger } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { heldGroup, sendHeldAnswers, splitAnswer } from "../chat/mod.ts";
import { SLACK_LIMIT } from "./answer_stream.ts";
import { reasonOf, type SlackAccount, slackErrorOf } from "./slack_account.ts";

const log = logger("slack");

/** What sending the held answers needs. */
export interface SendSlackHeldOptions {
  web: WebClient;
  account: SlackAccount;
  /** The connection's folder; the bridge holds answers in its `held/` (the way in's). */
  stateDir: string;
  ownerId: string;
  access?: ChatAccess;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Sends the answers the bridge holds for this connection (a reminder, a turn finished after a
 * crash) to the owner's DM, opened by conversations.open, or to the channel its thread names when
 * that channel is kept (an allowed person talked to the agent there) and still shared, never to
 * another chat the harness names (SCH-3), each once, until `signal` aborts.
 */
export function sendSlackHeld(options: SendSlackHeldOptions): Promise<void> {
  return sendHeldAnswers({
    connection: "slack",
    stateDir: options.stateDir,
    clock: options.clock,
    signal: options.signal,
    async send(held) {
      const group = await heldGroup(options.stateDir, held.thread, options.access);
      const channel = group ? held.thread.slice("slack:".length) : await ownersDm(options);
      for (const part of splitAnswer(held.text, SLACK_LIMIT)) {
        await call(options, () => options.web.chat.postMessage({ channel, text: part }));
      }
      log.info(group ? "Sent a held answer to its channel" : "Sent a held answer to the owner", {
        thread: held.thread,
      });
    },
  });
}

/** The owner's DM with the app. */
async function ownersDm(options: SendSlackHeldOptions): Promise<string> {
  const opened = await call(options, () => options.web.conversations.open({ users: options.ownerId }));
  const id = opened.channel?.id;
  if (!id) throw new Error("Cannot send a held answer: Slack opened no DM with the owner");
  return id;
}

/** One Web API call, waiting out a 429's Retry-After. */
async function call<T>(options: SendSlackHeldOptions, run: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await run();
    } catch (err) {
      const { retryAfterMs } = slackErrorOf(err);
      if (retryAfterMs === undefined || options.signal.aborted) {
        throw new Error(`Cannot send a held answer: ${reasonOf(options.account, err)}`);
      }
      await options.clock.sleep(retryAfterMs, options.signal);
    }
  }
}
