import { type Logger as SlackLogger, LogLevel, WebClient } from "@slack/web-api";
import { logger, type Secret } from "../../core/base/mod.ts";

const log = logger("slack");

/**
 * Where Slack's Web API answers (Slack's, or a server in its place) and the app's two tokens: the
 * bot token (`xoxb-`) for the Web API, the app-level token (`xapp-`) for Socket Mode.
 */
export interface SlackAccount {
  apiUrl: string;
  botToken: Secret;
  appToken: Secret;
  /** The app's bot user (auth.test's `user_id`), as its mentions name it: `<@U…>`. */
  botUserId?: string;
}

/**
 * The Web API client with the bot token, one of the two places a token is revealed. It never waits
 * or retries on its own: a 429 comes back as an error with its Retry-After, waited out by the
 * caller's clock.
 */
export function slackWebClient(account: SlackAccount): WebClient {
  return new WebClient(account.botToken.reveal(), {
    slackApiUrl: apiUrlOf(account),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: slackLogger(account),
  });
}

/** The API's address as the clients take it: ending in one slash. */
export function apiUrlOf(account: SlackAccount): string {
  return `${account.apiUrl.replace(/\/+$/, "")}/`;
}

/** The clients' own logging, token-free, at debug level in Link's log: it is theirs, not a person's. */
export function slackLogger(account: SlackAccount): SlackLogger {
  const say = (...msg: unknown[]) => log.debug(redacted(account, msg.map(String).join(" ")));
  return {
    debug: say,
    info: say,
    warn: say,
    error: say,
    setLevel: () => {},
    getLevel: () => LogLevel.INFO,
    setName: () => {},
  };
}

/** A text with neither token in it. */
export function redacted(account: SlackAccount, text: string): string {
  let out = text;
  for (const secret of [account.botToken, account.appToken]) {
    const token = secret.reveal();
    if (token) out = out.replaceAll(token, "[redacted]").replaceAll(encodeURIComponent(token), "[redacted]");
  }
  return out;
}

/** A foreign error as a reason to log or show: its message and its cause's, without the tokens. */
export function reasonOf(account: SlackAccount, err: unknown): string {
  if (!(err instanceof Error)) return redacted(account, String(err));
  const inner = "original" in err && err.original instanceof Error ? err.original : err.cause;
  const more = inner instanceof Error && inner.message !== err.message ? `: ${inner.message}` : "";
  return redacted(account, `${err.message}${more}`);
}

/**
 * What kind of failure a Web API call met, told by the clients' error `code`s (the two clients may
 * load two copies of the library, so `instanceof` cannot tell): Slack's own error word, a 429's
 * wait, or neither.
 */
export function slackErrorOf(err: unknown): { error?: string; retryAfterMs?: number; status?: number } {
  if (!(err instanceof Error) || !("code" in err)) return {};
  const e = err as Error & {
    code: unknown;
    data?: { error?: unknown };
    retryAfter?: unknown;
    statusCode?: unknown;
  };
  if (e.code === "slack_webapi_platform_error" && typeof e.data?.error === "string") {
    return { error: e.data.error };
  }
  if (e.code === "slack_webapi_rate_limited_error" && typeof e.retryAfter === "number") {
    return { retryAfterMs: e.retryAfter * 1000 };
  }
  if (e.code === "slack_webapi_http_error" && typeof e.statusCode === "number") {
    return { status: e.statusCode };
  }
  return {};
}

/** Slack's words for a token it will not take. */
export const REFUSED_TOKEN_ERRORS: readonly string[] = [
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "not_allowed_token_type",
];
