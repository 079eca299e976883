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

/** A piece of a message's text Telegram marks: a mention (`@name`), a command, a link. */
export const TelegramEntity = z.looseObject({
  type: z.string(),
  offset: z.number().int().nonnegative(),
  length: z.number().int().nonnegative(),
});
export type TelegramEntity = z.infer<typeof TelegramEntity>;

/**
 * A message, as far as Link reads one: who, where, its text if it has any, what the text marks,
 * and whom it replies to.
 */
export const TelegramMessage = z.looseObject({
  message_id: z.number().int(),
  chat: z.looseObject({ id: z.number().int(), type: z.string(), title: z.string().optional() }),
  from: TelegramUser.optional(),
  text: z.string().optional(),
  entities: z.array(TelegramEntity).optional(),
  reply_to_message: z.looseObject({ from: TelegramUser.optional() }).optional(),
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
