import { splitAnswer as splitAt } from "../chat/mod.ts";

/** The longest message Telegram takes, in UTF-16 code units (CON-13). */
export const TELEGRAM_LIMIT = 4096;

/** Splits an answer into Telegram messages (see connections/chat), at most `limit` characters each. */
export function splitAnswer(text: string, limit: number = TELEGRAM_LIMIT): string[] {
  return splitAt(text, limit);
}
