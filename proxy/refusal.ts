/** Why the proxy refused a request; sent in the `Link-Refused` header and named in test titles. */
export type RefusalReason =
  | "secret-missing"
  | "secret-wrong"
  | "wrong-host"
  | "bad-request"
  | "invalid-host"
  | "name-forbidden"
  | "address-forbidden"
  | "host-not-allowed"
  | "port-not-allowed"
  | "resolve-failed"
  | "upstream-failed"
  | "head-timeout"
  | "too-many-connections";

/** A refusal: why, what failed (never holding a secret), and what to do. */
export interface Refusal {
  readonly reason: RefusalReason;
  readonly message: string;
  readonly hint?: string;
}

/** The HTTP status for a refusal; a missing secret is 407 only where a proxy client can answer it. */
export function refusalStatus(reason: RefusalReason, asProxy: boolean): number {
  switch (reason) {
    case "secret-missing":
    case "secret-wrong":
      return asProxy ? 407 : 403;
    case "bad-request":
    case "invalid-host":
      return 400;
    case "resolve-failed":
    case "upstream-failed":
      return 502;
    case "head-timeout":
      return 408;
    case "too-many-connections":
      return 503;
    default:
      return 403;
  }
}

/** The body a refused caller reads: what failed, and the hint on its own line. */
export function refusalBody(refusal: Refusal): string {
  const hint = refusal.hint ? `\n  hint: ${refusal.hint}` : "";
  return `Link's proxy refused the request: ${refusal.message}${hint}\n`;
}

/** The refusal for an upstream that could not be reached or failed before answering. */
export function upstreamFailed(
  route: { host: string; port: number; address: string },
  err: unknown,
): Refusal {
  const why = err instanceof Error ? err.message : String(err);
  return {
    reason: "upstream-failed",
    message: `Cannot reach "${route.host}:${route.port}" (${route.address}): ${why}`,
  };
}
