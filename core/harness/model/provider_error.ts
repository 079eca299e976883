import { isLinkError, LinkError } from "../../base/mod.ts";
import { ProviderErrorBody } from "./wire_schemas.ts";

/** Why a call to the model failed. */
export type ProviderFailureKind =
  | "refused_key" // HTTP 401 or 403
  | "rate_limited" // HTTP 429
  | "not_found" // HTTP 404: no such model, or not an OpenAI-compatible address
  | "bad_request" // any other 4xx
  | "provider_failed" // HTTP 5xx, or an error the provider sent mid-stream
  | "timeout" // nothing within the deadline
  | "stalled" // the answer stopped mid-way for too long
  | "garbage" // a reply that is neither SSE nor a chat completion
  | "cut_off" // the answer ended before its finish
  | "unreachable"; // no connection

/** What a PROVIDER_ERROR keeps for the logs (`lnk agent logs`, MDL-2): never the key or the URL. */
export interface ProviderFailure {
  kind: ProviderFailureKind;
  /** The HTTP status, when there was one. */
  status?: number;
  /** The provider's own words (its error message or the start of its body), for logs only. */
  providerMessage?: string;
  /** How long the provider asked to wait (Retry-After), for 429s. */
  retryAfterMs?: number;
}

const LOGS_HINT = "Run `lnk agent logs` to see the provider's own words";

const SAYS: Record<ProviderFailureKind, (f: ProviderFailure, ms: number) => string> = {
  refused_key: () => "the provider refused the key",
  rate_limited: () => "the provider is limiting requests",
  not_found: (f) => `the provider has no such model at this address (HTTP ${f.status})`,
  bad_request: (f) => `the provider rejected the request (HTTP ${f.status})`,
  provider_failed: (f) =>
    f.status ? `the provider failed (HTTP ${f.status})` : "the provider failed mid-answer",
  timeout: (_f, ms) => `the provider sent nothing within ${seconds(ms)}`,
  stalled: (_f, ms) => `the provider stopped mid-answer for ${seconds(ms)}`,
  garbage: () => "the provider's reply is not a chat completion",
  cut_off: () => "the provider's reply was cut off",
  unreachable: () => "the provider could not be reached",
};

const HINTS: Partial<Record<ProviderFailureKind, string>> = {
  refused_key: "Check the model provider's key, then send the message again",
  rate_limited: "Wait a minute, then send the message again",
  not_found: "Check the agent's model and model URL, then send the message again",
};

/**
 * The PROVIDER_ERROR for a failure: a message a person reads on their phone ("Your agent could
 * not answer: …"), and the failure itself as `cause`, for the logs.
 */
export function providerError(failure: ProviderFailure, options: { deadlineMs?: number } = {}): LinkError {
  const says = SAYS[failure.kind](failure, options.deadlineMs ?? 0);
  return new LinkError("PROVIDER_ERROR", `Your agent could not answer: ${says}`, {
    hint: HINTS[failure.kind] ?? LOGS_HINT,
    cause: failure,
  });
}

/** The failure a PROVIDER_ERROR carries, for logging; undefined for any other error. */
export function providerFailureOf(err: unknown): ProviderFailure | undefined {
  if (!isLinkError(err, "PROVIDER_ERROR")) return undefined;
  const cause = err.cause;
  return typeof cause === "object" && cause !== null && "kind" in cause
    ? cause as ProviderFailure
    : undefined;
}

/** The failure for an HTTP error status, with the provider's words taken from its body. */
export function httpFailure(status: number, bodyText: string, retryAfter: string | null): ProviderFailure {
  const kind: ProviderFailureKind = status === 401 || status === 403
    ? "refused_key"
    : status === 429
    ? "rate_limited"
    : status === 404
    ? "not_found"
    : status >= 500
    ? "provider_failed"
    : "bad_request";
  const failure: ProviderFailure = { kind, status, providerMessage: providerWords(bodyText) };
  const wait = retryAfter === null ? NaN : Number(retryAfter);
  if (Number.isFinite(wait) && wait >= 0) failure.retryAfterMs = wait * 1000;
  return failure;
}

/** The provider's message from an error body, else the body's start. */
export function providerWords(bodyText: string): string {
  try {
    const parsed = ProviderErrorBody.safeParse(JSON.parse(bodyText));
    if (parsed.success) {
      const error = parsed.data.error;
      if (typeof error === "string") return error;
      if (error.message) return error.message;
    }
  } catch {
    // Not JSON: the text itself is the provider's words.
  }
  return bodyText.trim().slice(0, 2000);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
