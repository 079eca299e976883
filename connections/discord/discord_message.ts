import { z } from "zod";

/** Who wrote a message, as far as Link reads one. */
const Author = z.looseObject({
  id: z.string(),
  username: z.string().optional(),
  global_name: z.string().nullish(),
  bot: z.boolean().optional(),
});

/** A MESSAGE_CREATE's message, as far as Link reads one: where, who, what, and whom it mentions or answers. */
export const DiscordMessage = z.looseObject({
  id: z.string(),
  channel_id: z.string(),
  guild_id: z.string().optional(),
  author: Author,
  content: z.string().default(""),
  webhook_id: z.string().optional(),
  mentions: z.array(z.looseObject({ id: z.string() })).default([]),
  referenced_message: z.looseObject({ author: Author }).nullish(),
  attachments: z.array(z.unknown()).default([]),
  sticker_items: z.array(z.unknown()).default([]),
});
export type DiscordMessage = z.infer<typeof DiscordMessage>;

/** Whether a snowflake can name a file: Discord's ids are decimal digits. */
export function isSnowflake(id: unknown): id is string {
  return typeof id === "string" && /^\d{1,20}$/.test(id);
}

/** Whether a person (not a bot, not a webhook) wrote the message. */
export function isPersons(message: DiscordMessage): boolean {
  return message.author.bot !== true && message.webhook_id === undefined;
}

/** Whether the message mentions the bot or replies to one of its messages. */
export function isForBot(message: DiscordMessage, botId: string): boolean {
  return message.mentions.some((m) => m.id === botId) || message.referenced_message?.author.id === botId;
}

/** The message's text without the bot's mentions, as the agent reads it. */
export function textFor(message: DiscordMessage, botId: string): string {
  return message.content.replaceAll(`<@${botId}>`, "").replaceAll(`<@!${botId}>`, "").trim();
}

/** The name a person shows in Discord: their display name, else their username, else their id. */
export function displayName(message: DiscordMessage): string {
  return message.author.global_name || message.author.username || message.author.id;
}

/** Whether the message carries a file or a sticker: what Link does not read. */
export function hasNoText(message: DiscordMessage, text: string): boolean {
  return !text.trim() && (message.attachments.length > 0 || message.sticker_items.length > 0);
}
