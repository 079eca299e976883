/** Every code a LinkError may carry: a closed list, so callers and `--json` readers can rely on it. */
export const ERROR_CODES = [
  "USAGE",
  "INVALID",
  "BUSY",
  "CONFIG_INVALID",
  "AGENT_NOT_FOUND",
  "AGENT_EXISTS",
  "AGENT_RUNNING",
  "AGENT_NOT_RUNNING",
  "AGENT_BUSY",
  "HARNESS_MISSING",
  "SANDBOX_REFUSED",
  "SYMLINK_REFUSED",
  "SANDBOX_UNAVAILABLE",
  "PORT_UNAVAILABLE",
  "SERVICE_FAILED",
  "PROOF_FAILED",
  "NOT_A_TERMINAL",
  "REFUSED",
  "PROVIDER_ERROR",
  "TURN_FAILED",
  "CLONE_FAILED",
  "TIMEOUT",
  "CONFLICT",
  "UNSUPPORTED",
  "INTERNAL",
] as const;

/** One of ERROR_CODES. */
export type ErrorCode = typeof ERROR_CODES[number];

/** Tells whether a value (read from another process, say) is one of the codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}

/** The one error type of Link: a code from a closed list, what failed, and what to do. */
export class LinkError extends Error {
  override name = "LinkError";
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }
}

/** Tells whether a value is a LinkError with the given code. */
export function isLinkError(err: unknown, code?: ErrorCode): err is LinkError {
  return err instanceof LinkError && (code === undefined || err.code === code);
}

/** Turns anything thrown into a LinkError, keeping a LinkError as it is. */
export function toLinkError(err: unknown): LinkError {
  if (err instanceof LinkError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new LinkError("INTERNAL", `Link failed unexpectedly: ${message}`, {
    hint: "Run the command again with LNK_LOG=debug to see where, and report it",
    cause: err,
  });
}
