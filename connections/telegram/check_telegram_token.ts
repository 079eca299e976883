import { GrammyError } from "grammy";
import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import { reasonOf, type TelegramAccount, telegramApi } from "./telegram_account.ts";

/** What getMe says of the bot, as far as Link reads it. */
const BotUser = z.looseObject({ id: z.number().int(), is_bot: z.literal(true), username: z.string() });

/**
 * Asks Telegram who the token belongs to (getMe). A token Telegram refuses is REFUSED; an API root
 * that does not answer, or answers something other than the Bot API, is SERVICE_FAILED naming it.
 * The token appears in no message, hint or cause.
 */
export async function checkTelegramToken(
  account: TelegramAccount,
): Promise<{ id: number; username: string }> {
  let me: unknown;
  try {
    me = await telegramApi(account).getMe();
  } catch (err) {
    throw telegramFailure(account, err, "Cannot use the Telegram token");
  }
  const parsed = BotUser.safeParse(me);
  if (!parsed.success) throw garbage(account);
  return { id: parsed.data.id, username: parsed.data.username };
}

/** Whether Telegram refused the token itself: 401, or 404 for a token of no bot. */
export function isTokenRefused(err: unknown): boolean {
  return err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404);
}

/** A failed Bot API call as Link's error, token-free: refused, garbage, or not answering. */
export function telegramFailure(account: TelegramAccount, err: unknown, action: string): LinkError {
  const cause = new Error(reasonOf(account, err));
  if (isTokenRefused(err)) {
    return new LinkError("REFUSED", `${action}: Telegram refused it`, {
      hint: "Copy the bot's token again from @BotFather (/token), then connect Telegram to the agent again",
      cause,
    });
  }
  if (err instanceof GrammyError) {
    return new LinkError(
      "SERVICE_FAILED",
      `${action}: the Telegram API at "${account.apiRoot}" answered ${err.error_code} (${err.description})`,
      { cause },
    );
  }
  if (
    err instanceof Error && err.name === "HttpError" && /invalid json|is not valid JSON/i.test(cause.message)
  ) {
    return garbage(account, cause);
  }
  return new LinkError(
    "SERVICE_FAILED",
    `${action}: nothing answers as the Telegram API at "${account.apiRoot}"`,
    { hint: "Check the address given with --api-root and that this computer is online", cause },
  );
}

function garbage(account: TelegramAccount, cause?: Error): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    `Cannot use the Telegram API at "${account.apiRoot}": it answers, but not as the Bot API`,
    { hint: "Check the address given with --api-root", cause },
  );
}
