import type { ChatAccess } from "../../core/spec/mod.ts";
import { type DiscordMessage, isForBot, isPersons, textFor } from "./discord_message.ts";

/** Where a message goes: the agent's thread, who wrote it when not the owner, and its shared chat. */
export type DiscordRoute =
  | { thread: string; from?: string; chat?: string; text: string }
  | { dropped: string };

/** Who a carrier answers: the bot itself, its owner, and what `[access] message` shares. */
export interface RouteContext {
  botId: string;
  ownerId: string;
  access: ChatAccess;
}

/**
 * Which thread a message goes to, or why it is dropped (CON-9, ACS-3): the owner's DMs as the owner
 * (`discord:<channel id>`); in a chat shared as `<guild>:<channel>`, a person's message that
 * mentions the bot or replies to it, from `person:discord:<user id>` unless it is the owner's; a
 * DM of a person admitted one by one, from them. A bot's or a webhook's message never goes.
 */
export function routeMessage(message: DiscordMessage, ctx: RouteContext): DiscordRoute {
  if (!isPersons(message) || message.author.id === ctx.botId) return { dropped: "a bot wrote it" };
  const thread = `discord:${message.channel_id}`;
  const isOwner = message.author.id === ctx.ownerId;
  const from = isOwner ? {} : { from: `person:discord:${message.author.id}` };
  if (message.guild_id === undefined) {
    if (!isOwner && !ctx.access.persons.has(message.author.id)) {
      return { dropped: "a DM from someone not admitted" };
    }
    return { thread, ...from, text: message.content };
  }
  const chat = `${message.guild_id}:${message.channel_id}`;
  if (!ctx.access.chats.has(chat)) return { dropped: "a channel not shared" };
  if (!isForBot(message, ctx.botId)) {
    return { dropped: "a message that neither mentions the bot nor replies to it" };
  }
  return { thread, ...from, chat, text: textFor(message, ctx.botId) };
}
