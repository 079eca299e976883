import { Api } from "grammy";
import type { Secret } from "../../core/base/mod.ts";

/** Where the Bot API answers (Telegram's, or a self-hosted server) and the token it knows the bot by. */
export interface TelegramAccount {
  apiRoot: string;
  token: Secret;
}

/** grammY's client for the account; the only place the token is revealed (it goes in each URL). */
export function telegramApi(account: TelegramAccount): Api {
  return new Api(account.token.reveal(), { apiRoot: account.apiRoot.replace(/\/+$/, "") });
}

/**
 * What went wrong, said without the token: grammY puts it in each URL, and a failed fetch names
 * the URL in its message.
 */
export function redacted(account: TelegramAccount, text: string): string {
  const token = account.token.reveal();
  return token
    ? text.replaceAll(token, "[redacted]").replaceAll(encodeURIComponent(token), "[redacted]")
    : text;
}

/** A foreign error as a reason to log or show: its message and its cause's, without the token. */
export function reasonOf(account: TelegramAccount, err: unknown): string {
  if (!(err instanceof Error)) return redacted(account, String(err));
  const inner = "error" in err && err.error instanceof Error ? err.error : err.cause;
  const more = inner instanceof Error && inner.message !== err.message ? `: ${inner.message}` : "";
  return redacted(account, `${err.message}${more}`);
}

/** grammY's own AbortSignal type (from its Node shim): the platform's signal, as it takes one. */
export type GrammySignal = Parameters<Api["getUpdates"]>[1];

/** The platform's signal as grammY's calls type it; grammY listens to it as to its own. */
export function grammySignal(signal: AbortSignal | undefined): GrammySignal {
  return signal as unknown as GrammySignal;
}
