import { Routes } from "discord-api-types/v10";
import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import { type DiscordAccount, discordRest, isTokenRefused, reasonOf, statusOf } from "./discord_account.ts";

/** What GET users/@me says of the bot, as far as Link reads it. */
const BotUser = z.looseObject({ id: z.string(), username: z.string(), bot: z.literal(true).optional() });

/**
 * Asks Discord who the token belongs to (GET users/@me). A token Discord refuses is REFUSED; an
 * address that does not answer, or answers something other than Discord's API, is SERVICE_FAILED
 * naming it. The token appears in no message, hint or cause.
 */
export async function checkDiscordToken(account: DiscordAccount): Promise<{ id: string; username: string }> {
  let me: unknown;
  try {
    me = await discordRest(account).get(Routes.user());
  } catch (err) {
    throw discordFailure(account, err, "Cannot use the Discord token");
  }
  const parsed = BotUser.safeParse(me);
  if (!parsed.success) throw garbage(account);
  return { id: parsed.data.id, username: parsed.data.username };
}

/** A failed REST call as Link's error, token-free: refused, garbage, or not answering. */
export function discordFailure(account: DiscordAccount, err: unknown, action: string): LinkError {
  const cause = new Error(reasonOf(account, err));
  if (isTokenRefused(err)) {
    return new LinkError("REFUSED", `${action}: Discord refused it`, {
      hint:
        "Copy the bot's token again from the Bot page of the application in Discord's Developer Portal, then connect Discord to the agent again",
      cause,
    });
  }
  const status = statusOf(err);
  if (status !== undefined) {
    return new LinkError(
      "SERVICE_FAILED",
      `${action}: the Discord API at "${account.apiUrl}" answered ${status}`,
      {
        cause,
      },
    );
  }
  if (err instanceof SyntaxError || /JSON/i.test(cause.message)) return garbage(account, cause);
  return new LinkError(
    "SERVICE_FAILED",
    `${action}: nothing answers as the Discord API at "${account.apiUrl}"`,
    {
      hint: "Check the address given with --api-url and that this computer is online",
      cause,
    },
  );
}

function garbage(account: DiscordAccount, cause?: Error): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    `Cannot use the Discord API at "${account.apiUrl}": it answers, but not as Discord's API`,
    { hint: "Check the address given with --api-url", cause },
  );
}
