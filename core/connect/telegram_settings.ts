import { z } from "zod";
import { atomicWrite, joinPath, type LinkPaths, readTextIfExists, Secret } from "../base/mod.ts";

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

/**
 * The file holding the bot's token (`bot-token`, CON-5), in the connection's folder under ~/.lnk,
 * which no sandbox sees (CON-12, CON-14); only the bridge and `lnk agent connect` read it.
 */
export function telegramTokenFile(paths: LinkPaths, agentId: string): string {
  return joinPath(paths.connectionDir(agentId, "telegram"), "bot-token");
}

/** The bot's token as `lnk agent connect` kept it, or undefined. */
export async function readTelegramToken(paths: LinkPaths, agentId: string): Promise<Secret | undefined> {
  const text = (await readTextIfExists(telegramTokenFile(paths, agentId)))?.trim();
  return text ? new Secret(text) : undefined;
}

/** Keeps the bot's token, the user's alone. */
export async function writeTelegramToken(paths: LinkPaths, agentId: string, token: Secret): Promise<void> {
  await Deno.mkdir(paths.connectionDir(agentId, "telegram"), { recursive: true, mode: 0o700 });
  await atomicWrite(telegramTokenFile(paths, agentId), `${token.reveal()}\n`, { mode: 0o600 });
}
