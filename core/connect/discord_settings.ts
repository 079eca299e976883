import { z } from "zod";

/** Discord's own API, unless `--api-url` names another (a test's fake). */
export const DISCORD_API_URL = "https://discord.com/api";

/** `bots.discord` in the agent's settings: where the API is, the bot, and its paired owner. */
export const DiscordBot = z.strictObject({
  api_url: z.url(),
  bot: z.strictObject({ id: z.string(), username: z.string() }),
  owner: z.strictObject({ id: z.string(), name: z.string() }),
  paired_at: z.string(),
});
export type DiscordBot = z.infer<typeof DiscordBot>;
