import type { REST } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { logger } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { type DiscordAccount, reasonOf } from "./discord_account.ts";

const log = logger("discord");

/** The most messages one catch-up reads of a channel (Discord's largest page). */
export const CATCH_UP_PAGE = 100;

const Listed = z.array(
  z.looseObject({ id: z.string(), author: z.looseObject({ id: z.string() }).optional() }),
);
const DmChannel = z.looseObject({ id: z.string() });

/** What a catch-up reads with: the client, who the owner is, what is shared, and what Link has seen. */
export interface CatchUpOptions {
  account: DiscordAccount;
  rest: REST;
  ownerId: string;
  botId: string;
  access: ChatAccess;
  /** Whether Link has seen this message (kept, answered, or read by a pairing). */
  seen(messageId: string): boolean;
  /** Keeps one message as the gateway would have given it. */
  keep(message: unknown): Promise<void>;
}

/**
 * Reads what came while no gateway session was live (before the first READY, or after a session
 * Discord would not resume): Discord replays a resumed session's events but never a new one's, so a
 * DM sent between the pairing and the bridge's connect, or while the bridge was down, is read back
 * from the channel's history. For the owner's DM and each shared channel, the messages after the
 * newest one Link has seen there (or after the bot's own last message) are kept, oldest first;
 * a channel where Link has seen nothing of the last page is left as it is, so no old chatter is
 * answered. Returns how many it kept.
 */
export async function catchUp(options: CatchUpOptions): Promise<number> {
  const channels: { id: string; guild?: string }[] = [];
  try {
    const dm = DmChannel.parse(
      await options.rest.post(Routes.userChannels(), { body: { recipient_id: options.ownerId } }),
    );
    channels.push({ id: dm.id });
  } catch (err) {
    log.warn("Cannot open the owner's DM to catch up", { err: reasonOf(options.account, err) });
  }
  for (const chat of options.access.chats) {
    const [guild, channel] = chat.split(":");
    if (guild && channel) channels.push({ id: channel, guild });
  }
  let kept = 0;
  for (const channel of channels) {
    let page: z.infer<typeof Listed>;
    try {
      page = Listed.parse(
        await options.rest.get(Routes.channelMessages(channel.id), {
          query: new URLSearchParams({ limit: String(CATCH_UP_PAGE) }),
        }),
      );
    } catch (err) {
      log.warn("Cannot read a channel's history to catch up", {
        channel: channel.id,
        err: reasonOf(options.account, err),
      });
      continue;
    }
    // Newest first, as Discord lists: what came after the newest one seen (or the bot's own) is new.
    const mark = page.findIndex((m) => options.seen(m.id) || m.author?.id === options.botId);
    if (mark < 0) {
      if (page.length) {
        log.info("Nothing seen in a channel's last page: no catch-up there", { channel: channel.id });
      }
      continue;
    }
    const missed = page.slice(0, mark).reverse();
    for (const message of missed) {
      if (options.seen(message.id)) continue;
      // A message read from history names no guild; the gateway's does, and routing reads it.
      await options.keep(channel.guild ? { ...message, guild_id: channel.guild } : message);
      kept++;
    }
    if (missed.length) log.info("Caught up on a channel", { channel: channel.id, messages: missed.length });
  }
  return kept;
}
