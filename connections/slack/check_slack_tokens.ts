import { WebClient } from "@slack/web-api";
import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import {
  apiUrlOf,
  reasonOf,
  REFUSED_TOKEN_ERRORS,
  type SlackAccount,
  slackErrorOf,
  slackLogger,
  slackWebClient,
} from "./slack_account.ts";

/** What auth.test says of the bot token, as far as Link reads it. */
const AuthTest = z.looseObject({
  ok: z.literal(true),
  team_id: z.string(),
  user_id: z.string(),
  bot_id: z.string(),
  app_id: z.string().optional(),
});

/** What apps.connections.open gives: the address of one Socket Mode connection. */
const ConnectionsOpen = z.looseObject({ ok: z.literal(true), url: z.string() });

/** Which of the app's two tokens a call used, as a person knows them. */
export type SlackTokenKind = "bot" | "app";

/** The workspace and the app's bot, as Slack knows them. */
export interface SlackIdentity {
  teamId: string;
  botUserId: string;
  botId: string;
  appId?: string;
}

/**
 * Checks both tokens with Slack: auth.test with the bot token, apps.connections.open with the
 * app-level token. A token Slack refuses is REFUSED naming which; an address that does not answer,
 * or answers something other than Slack's Web API, is SERVICE_FAILED naming it. No token appears in
 * any message, hint or cause.
 */
export async function checkSlackTokens(account: SlackAccount): Promise<SlackIdentity> {
  let auth: unknown;
  try {
    auth = await slackWebClient(account).auth.test();
  } catch (err) {
    throw slackFailure(account, err, { action: "Cannot use the Slack bot token", token: "bot" });
  }
  const me = AuthTest.safeParse(auth);
  if (!me.success) throw garbage(account);
  let opened: unknown;
  try {
    opened = await appWebClient(account).apps.connections.open({});
  } catch (err) {
    throw slackFailure(account, err, { action: "Cannot use the Slack app-level token", token: "app" });
  }
  if (!ConnectionsOpen.safeParse(opened).success) throw garbage(account);
  const { team_id, user_id, bot_id, app_id } = me.data;
  return { teamId: team_id, botUserId: user_id, botId: bot_id, ...(app_id ? { appId: app_id } : {}) };
}

/** The Web API client with the app-level token, for apps.connections.open alone. */
function appWebClient(account: SlackAccount): WebClient {
  return new WebClient(account.appToken.reveal(), {
    slackApiUrl: apiUrlOf(account),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: slackLogger(account),
  });
}

/** Whether Slack refused the token itself (revoked, wrong kind, or never valid). */
export function isTokenRefused(err: unknown): boolean {
  const { error } = slackErrorOf(err);
  return error !== undefined && REFUSED_TOKEN_ERRORS.includes(error);
}

/** A failed Web API call as Link's error, token-free: refused, garbage, or not answering. */
export function slackFailure(
  account: SlackAccount,
  err: unknown,
  options: { action: string; token: SlackTokenKind },
): LinkError {
  const cause = new Error(reasonOf(account, err));
  const { error, status } = slackErrorOf(err);
  if (isTokenRefused(err)) {
    const which = options.token === "bot" ? "bot token (xoxb-)" : "app-level token (xapp-)";
    return new LinkError("REFUSED", `${options.action}: Slack refused the ${which} (${error})`, {
      hint: options.token === "bot"
        ? "Copy the Bot User OAuth Token from the app's OAuth & Permissions page, then connect Slack again"
        : "Make an app-level token with connections:write on the app's Basic Information page, then connect Slack again",
      cause,
    });
  }
  if (error !== undefined) {
    return new LinkError("SERVICE_FAILED", `${options.action}: Slack answered "${error}"`, { cause });
  }
  if (status !== undefined || /JSON|Unexpected token/i.test(cause.message)) return garbage(account, cause);
  return new LinkError(
    "SERVICE_FAILED",
    `${options.action}: nothing answers as Slack's Web API at "${account.apiUrl}"`,
    {
      hint: "Check the address given with --api-url and that this computer is online",
      cause,
    },
  );
}

function garbage(account: SlackAccount, cause?: Error): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    `Cannot use Slack's Web API at "${account.apiUrl}": it answers, but not as Slack's Web API`,
    { hint: "Check the address given with --api-url", cause },
  );
}
