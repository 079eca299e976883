import { isLinkError, LinkError, ROLE_LOGS_HINT } from "../base/mod.ts";

/**
 * A failed start, said with the error it failed with, its code kept: a role's own error reaches
 * here from its error line (spawnRole), never from its log. What `lnk agent start` prints, and the
 * door answers 503 with.
 */
export function serviceFailure(err: unknown, what: string): LinkError {
  const reason = err instanceof Error ? err.message : String(err);
  const said = isLinkError(err) ? err : undefined;
  return new LinkError(said?.code ?? "SERVICE_FAILED", `${what}: ${reason}`, {
    hint: said?.hint ?? ROLE_LOGS_HINT,
    cause: err,
  });
}
