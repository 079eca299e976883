import { isPairingCode } from "../chat/mod.ts";
import type { DiscordAccount } from "./discord_account.ts";
import { displayName } from "./discord_message.ts";
import { type PairingOptions, watchForCode } from "./watch_for_code.ts";

/** The owner paired: their Discord user id and the name they show. */
export interface DiscordOwner {
  id: string;
  name: string;
}

/**
 * Listens on the gateway until someone sends exactly the code in a DM with the bot before it
 * expires (CON-6): that person is the owner. The code in a guild channel, from a bot, in an edit
 * (an edit is no MESSAGE_CREATE), or after it expired never pairs; a sender of five wrong codes is
 * no longer read.
 */
export function pairDiscordOwner(account: DiscordAccount, options: PairingOptions): Promise<DiscordOwner> {
  return watchForCode(account, {
    ...options,
    action: "Cannot pair the owner on Discord",
    timeout: {
      message: "nobody sent the code before it expired",
      hint: "Connect Discord to the agent again and send the new code to the bot in a direct message",
    },
    read(message) {
      if (message.guild_id !== undefined) return undefined;
      if (!isPairingCode(message.content, options.code)) return "strike";
      return { found: { id: message.author.id, name: displayName(message) } };
    },
  });
}
