import type { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { type Clock, logger, sha256Hex } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { heldGroup, sendHeldAnswers, splitAnswer } from "../chat/mod.ts";
import { DISCORD_LIMIT } from "./answer_stream.ts";
import { type DiscordAccount, reasonOf } from "./discord_account.ts";

const log = logger("discord");

const DmChannel = z.looseObject({ id: z.string() });

/** What sending the held answers needs. */
export interface SendDiscordHeldOptions {
  rest: REST;
  account: DiscordAccount;
  /** The connection's folder; the bridge holds answers in its `held/`. */
  stateDir: string;
  ownerId: string;
  /** The chats shared now: a kept chat no longer shared gets nothing more. */
  access: ChatAccess;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Sends the answers the bridge holds for this connection (a turn finished after a crash, a
 * reminder), each once, oldest first, until `signal` aborts: to the shared chat its thread is when
 * an allowed person talked to the agent there (kept in groups.json) and it is still shared, else
 * to the owner's DM, never to another chat the harness names (SCH-3).
 */
export function sendDiscordHeld(options: SendDiscordHeldOptions): Promise<void> {
  return sendHeldAnswers({
    connection: "discord",
    stateDir: options.stateDir,
    clock: options.clock,
    signal: options.signal,
    async send(held) {
      try {
        const channelId = await channelFor(options, held.thread);
        // Each part's nonce is made from the held answer, so a part sent again after a kill -9 is
        // the message Discord made the first time (enforce_nonce), as an answer's are.
        const base = sha256Hex(`${held.thread}\n${held.at}\n${held.text}`).slice(0, 20);
        const parts = splitAnswer(held.text, DISCORD_LIMIT);
        for (const [i, part] of parts.entries()) {
          await options.rest.post(Routes.channelMessages(channelId), {
            body: { content: part, nonce: `${base}-${i}`, enforce_nonce: true },
          });
        }
      } catch (err) {
        throw new Error(`Cannot send a held answer: ${reasonOf(options.account, err)}`);
      }
      log.info("Sent a held answer", { thread: held.thread });
    },
  });
}

/** The channel a held answer goes to: its thread's, when that is a kept chat still shared; else the owner's DM. */
async function channelFor(options: SendDiscordHeldOptions, thread: string): Promise<string> {
  const group = await heldGroup(options.stateDir, thread, options.access);
  const channel = group?.chat.split(":")[1];
  if (channel) return channel;
  const dm = await options.rest.post(Routes.userChannels(), { body: { recipient_id: options.ownerId } });
  return DmChannel.parse(dm).id;
}
