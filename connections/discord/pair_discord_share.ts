import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { isPairingCode } from "../chat/mod.ts";
import { type DiscordAccount, discordRest } from "./discord_account.ts";
import { isForBot, textFor } from "./discord_message.ts";
import { type PairingOptions, watchForCode } from "./watch_for_code.ts";

/** A channel shared: `<guild id>:<channel id>`, and what to call it. */
export interface DiscordShare {
  chat: string;
  title: string;
}

/**
 * Listens on the gateway until the owner mentions the bot with exactly the code in a guild channel
 * before it expires (ACS-5): that channel is shared, as `<guild id>:<channel id>`. Anyone else's
 * mention, the code in a DM, or after it expired never shares.
 */
export async function pairDiscordShare(
  account: DiscordAccount,
  options: PairingOptions & { ownerId: string },
): Promise<DiscordShare> {
  const found = await watchForCode(account, {
    ...options,
    action: "Cannot share a Discord channel",
    timeout: {
      message: "the owner did not mention the bot with the code before it expired",
      hint: "Share the channel again, then mention the bot with the new code in it",
    },
    read(message, botId) {
      if (message.guild_id === undefined || message.author.id !== options.ownerId) return undefined;
      if (!isForBot(message, botId)) return undefined;
      if (!isPairingCode(textFor(message, botId), options.code)) return "strike";
      return { found: { chat: `${message.guild_id}:${message.channel_id}`, channelId: message.channel_id } };
    },
  });
  return { chat: found.chat, title: await titleOf(account, found.channelId) };
}

const Channel = z.looseObject({ name: z.string() });

/** The channel's name as Discord shows it (`#general`), or its id if Discord does not say. */
async function titleOf(account: DiscordAccount, channelId: string): Promise<string> {
  try {
    return `#${Channel.parse(await discordRest(account).get(Routes.channel(channelId))).name}`;
  } catch {
    return channelId;
  }
}
