import { z } from "zod";

/** Telegram's own Bot API server, unless `--api-root` names another (a self-hosted one, a test's fake). */
export const TELEGRAM_API_ROOT = "https://api.telegram.org";

/** `bots.telegram` in the agent's settings: where the Bot API is, the bot, and its paired owner. */
export const TelegramBot = z.strictObject({
  api_root: z.url(),
  bot: z.strictObject({ id: z.number().int(), username: z.string() }),
  owner: z.strictObject({ id: z.number().int(), username: z.string().optional(), name: z.string() }),
  paired_at: z.string(),
});
export type TelegramBot = z.infer<typeof TelegramBot>;
