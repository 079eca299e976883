import type { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { join } from "node:path";
import { z } from "zod";
import { type Clock, logger } from "../../core/base/mod.ts";
import { HeldAnswer } from "../link/mod.ts";
import { splitAnswer } from "../chat/mod.ts";
import { DISCORD_LIMIT } from "./answer_stream.ts";
import { type DiscordAccount, reasonOf } from "./discord_account.ts";
import { readKeptChats } from "./kept_chats.ts";

const log = logger("discord");

/** How long held answers wait after a send that failed. */
const RETRY_MS = 5_000;

const DmChannel = z.looseObject({ id: z.string() });

/** What sending the held answers needs. */
export interface SendHeldOptions {
  rest: REST;
  account: DiscordAccount;
  /** The connection's folder; the bridge holds answers in its `held/`. */
  stateDir: string;
  ownerId: string;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Sends the answers the bridge holds for this connection (a turn finished after a crash, a
 * reminder) oldest first, at the start and at each change of `held/`, until `signal` aborts: to the
 * shared chat its thread is when an allowed person talked to the agent there (kept in
 * groups.json), else to the owner's DM, never to another chat the harness names (SCH-3). Each is
 * renamed to `.sending` before it is sent and removed once it is, so none is lost to a crash.
 */
export async function sendHeldAnswers(options: SendHeldOptions): Promise<void> {
  const dir = join(options.stateDir, "held");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const watcher = Deno.watchFs(dir);
  const stop = () => watcher.close();
  options.signal.addEventListener("abort", stop, { once: true });
  const drain = async () => {
    while (!options.signal.aborted) {
      try {
        return await sendAll(options, dir);
      } catch (err) {
        log.warn("Cannot send the held answers yet", { err: reasonOf(options.account, err) });
        await options.clock.sleep(RETRY_MS, options.signal).catch(() => {});
      }
    }
  };
  try {
    await drain();
    for await (const _ of watcher) await drain();
  } finally {
    options.signal.removeEventListener("abort", stop);
    if (!options.signal.aborted) watcher.close();
  }
}

async function sendAll(options: SendHeldOptions, dir: string): Promise<void> {
  const names = (await Array.fromAsync(Deno.readDir(dir)))
    .filter((e) => e.isFile && (e.name.endsWith(".json") || e.name.endsWith(".json.sending")))
    .map((e) => e.name).sort();
  for (const name of names) {
    if (options.signal.aborted) return;
    const sending = join(dir, name.endsWith(".sending") ? name : `${name}.sending`);
    if (!name.endsWith(".sending")) {
      try {
        await Deno.rename(join(dir, name), sending);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue; // taken meanwhile
        throw err;
      }
    }
    let held: HeldAnswer;
    try {
      held = HeldAnswer.parse(JSON.parse(await Deno.readTextFile(sending)));
    } catch (err) {
      log.warn("Cannot read a held answer: it is left aside", { path: sending, err });
      await Deno.rename(sending, `${sending}.unread`).catch(() => {});
      continue;
    }
    const channelId = await channelFor(options, held.thread);
    for (const part of splitAnswer(held.text, DISCORD_LIMIT)) {
      await options.rest.post(Routes.channelMessages(channelId), { body: { content: part } });
    }
    await Deno.remove(sending);
    log.info("Sent a held answer", { thread: held.thread });
  }
}

/** The channel a held answer goes to: its thread's, when that is a kept chat; else the owner's DM. */
async function channelFor(options: SendHeldOptions, thread: string): Promise<string> {
  const channel = /^discord:(\d+)$/.exec(thread)?.[1];
  const chats = await readKeptChats(options.stateDir);
  if (channel && chats.some((chat) => chat.endsWith(`:${channel}`))) return channel;
  const dm = await options.rest.post(Routes.userChannels(), { body: { recipient_id: options.ownerId } });
  return DmChannel.parse(dm).id;
}
