import { DiscordAPIError, HTTPError, REST } from "@discordjs/rest";
import type { Secret } from "../../core/base/mod.ts";

/** Discord's own REST API: what an account's `apiUrl` is unless given. */
export const DISCORD_API_URL = "https://discord.com/api";

/** Where Discord's REST API answers (Discord's, or a server in its place) and the bot's token. */
export interface DiscordAccount {
  apiUrl: string;
  token: Secret;
}

/**
 * The REST client for the account, one of the two places the token is revealed (the gateway's
 * IDENTIFY is the other). It obeys Discord's rate limits itself: the bucket headers and a 429's
 * Retry-After are waited out before the call is made again, so a call resolves once it went
 * through. Its sweepers are off: nothing runs once a carrier stops.
 */
export function discordRest(account: DiscordAccount): REST {
  return new REST({
    api: account.apiUrl.replace(/\/+$/, ""),
    hashSweepInterval: 0,
    handlerSweepInterval: 0,
    retries: 1,
  }).setToken(account.token.reveal());
}

/** A text without the token in it. */
export function redacted(account: DiscordAccount, text: string): string {
  const token = account.token.reveal();
  return token
    ? text.replaceAll(token, "[redacted]").replaceAll(encodeURIComponent(token), "[redacted]")
    : text;
}

/** A foreign error as a reason to log or show: its message and its cause's, without the token. */
export function reasonOf(account: DiscordAccount, err: unknown): string {
  if (!(err instanceof Error)) return redacted(account, String(err));
  const inner = err.cause;
  const more = inner instanceof Error && inner.message !== err.message ? `: ${inner.message}` : "";
  return redacted(account, `${err.message}${more}`);
}

/** The HTTP status a REST call failed with, if Discord (or a server in its place) answered one. */
export function statusOf(err: unknown): number | undefined {
  if (err instanceof DiscordAPIError || err instanceof HTTPError) return err.status;
  return undefined;
}

/** Whether Discord refused the token itself (401: revoked, reset, or never valid). */
export function isTokenRefused(err: unknown): boolean {
  return statusOf(err) === 401;
}
