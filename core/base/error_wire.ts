import { z } from "zod";
import { ERROR_CODES, type ErrorCode, isErrorCode, LinkError, toLinkError } from "./errors.ts";
import { lazySchema } from "./lazy_schema.ts";

/**
 * An error as it travels between Link's own processes: the inner `{"code","message","hint"}`.
 * Peers Link does not control (a store driver) may add fields, so it is loose; the code is any
 * string here and becomes a known one, or INTERNAL, when read back.
 */
export const ErrorBody = lazySchema(() =>
  z.looseObject({
    code: z.string(),
    message: z.string(),
    hint: z.string().nullable().optional(),
  })
);
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The inner error as Link's own processes write it: a code from the closed list, strictly. */
export const LinkErrorBody = lazySchema(() =>
  z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    hint: z.string().nullable().optional(),
  })
);
export type LinkErrorBody = z.infer<typeof LinkErrorBody>;

/**
 * The one wire shape of an error between Link's own processes, on a line or as a body:
 * `{"error":{"code":…,"message":…,"hint":…}}`. What a caller needs besides (a bridge's reason,
 * where an agent stands) goes beside `error`, never inside it; each reader takes those fields with
 * its own schema.
 */
export const ErrorWire = lazySchema(() => z.looseObject({ error: ErrorBody }));
export type ErrorWire = z.infer<typeof ErrorWire>;

/** What errorWire writes: the code from the closed list, and `hint` null when there is none. */
export interface WrittenError {
  error: { code: ErrorCode; message: string; hint: string | null };
}

/**
 * Writes anything thrown in the one wire shape (a LinkError as it is, anything else as INTERNAL),
 * ready for JSON.stringify; errorFromWire reads it back.
 */
export function errorWire(err: unknown): WrittenError {
  const error = toLinkError(err);
  return { error: { code: error.code, message: error.message, hint: error.hint ?? null } };
}

/**
 * Reads the one wire shape back into a LinkError with its code, or undefined when the value is
 * not that shape. A code not on Link's list becomes INTERNAL, its message kept: a newer or foreign
 * peer's code is never taken for one of ours. Whether to believe the code is the caller's to
 * decide where the peer is not Link's own (a sandbox, a driver Link does not control).
 */
export function errorFromWire(value: unknown): LinkError | undefined {
  const parsed = ErrorWire.safeParse(value);
  if (!parsed.success) return undefined;
  const { code, message, hint } = parsed.data.error;
  const options = hint ? { hint } : {};
  if (isErrorCode(code)) return new LinkError(code, message, options);
  return new LinkError("INTERNAL", message, { ...options, cause: { code } });
}
