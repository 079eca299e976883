import { z } from "zod";
import { isLinkError, LinkError } from "../../../base/mod.ts";
import type { ServiceBackend, ServiceNames } from "../../services/mod.ts";

const LogEntry = z.looseObject({
  time: z.string(),
  level: z.string(),
  msg: z.string(),
  hint: z.string().optional(),
});

/** The last error a service logged at or after `sinceMs`: what a role says before it exits. */
export async function lastServiceError(
  backend: ServiceBackend,
  names: ServiceNames,
  sinceMs: number,
): Promise<LoggedError | undefined> {
  const text = await backend.logs(names, 50).catch(() => "");
  for (const line of text.split("\n").reverse()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = LogEntry.safeParse(parsed);
    if (!entry.success) continue;
    if (Date.parse(entry.data.time) < sinceMs) return undefined;
    if (entry.data.level === "error") return { message: entry.data.msg, hint: entry.data.hint };
  }
  return undefined;
}

/** What a role said of its failure: its last error line's message and hint. */
export interface LoggedError {
  message: string;
  hint?: string;
}

/**
 * A failed start, said with the reason the role gave in its log when there is one, else with the
 * start's own error: what `lnk agent start` prints and the door answers 503 with.
 */
export function serviceFailure(err: unknown, what: string, logged?: LoggedError): LinkError {
  const reason = logged?.message ?? (err instanceof Error ? err.message : String(err));
  const hint = logged?.hint ?? (isLinkError(err) ? err.hint : undefined) ??
    "Run `lnk agent logs` to see what it said";
  return new LinkError("SERVICE_FAILED", `${what}: ${reason}`, { hint, cause: err });
}
