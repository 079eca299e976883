import { z } from "zod";

/** A Telegram user, as far as Link reads one. */
export const TelegramUser = z.looseObject({
  id: z.number().int(),
  is_bot: z.boolean().default(false),
  first_name: z.string().default(""),
  last_name: z.string().optional(),
  username: z.string().optional(),
});
export type TelegramUser = z.infer<typeof TelegramUser>;

/** A message, as far as Link reads one: who, where, and its text if it has any. */
export const TelegramMessage = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number().int(), type: z.string() }),
  from: TelegramUser.optional(),
  text: z.string().optional(),
});
export type TelegramMessage = z.infer<typeof TelegramMessage>;

/** One update of getUpdates: only a new `message` is ever answered; edits are not. */
export const TelegramUpdate = z.looseObject({
  update_id: z.number().int().nonnegative(),
  message: TelegramMessage.optional(),
});
export type TelegramUpdate = z.infer<typeof TelegramUpdate>;

/** The display name of a user: first and last names. */
export function displayName(user: TelegramUser): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ") || user.username || String(user.id);
}
