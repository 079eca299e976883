import { z } from "zod";
import { isLinkError, LinkError } from "../base/mod.ts";
import type { ServiceBackend, ServiceNames } from "./services/mod.ts";

const LogEntry = z.looseObject({
  time: z.string(),
  level: z.string(),
  msg: z.string(),
  hint: z.string().optional(),
  agent: z.string().optional(),
  /** "sandbox": a line a sandboxed program wrote, which Link logged as its; never Link's reason. */
  from: z.string().optional(),
});

/**
 * The first error a service logged at or after `sinceMs`: what failed first (a harness that could
 * not start, say), before the roles above it said they could not start either.
 */
export async function firstServiceError(
  backend: ServiceBackend,
  names: ServiceNames,
  sinceMs: number,
): Promise<LoggedError | undefined> {
  return firstLoggedError(await backend.logs(names, 100).catch(() => ""), sinceMs);
}

/**
 * The first error line of a log at or after `sinceMs`; with `agentId`, leaving out lines that name
 * another agent (a log every agent writes, such as the shared bridge's).
 */
export function firstLoggedError(text: string, sinceMs: number, agentId?: string): LoggedError | undefined {
  for (const line of text.split("\n")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = LogEntry.safeParse(parsed);
    if (!entry.success || entry.data.level !== "error" || Date.parse(entry.data.time) < sinceMs) continue;
    if (entry.data.from === "sandbox") continue;
    if (agentId !== undefined && entry.data.agent !== undefined && entry.data.agent !== agentId) continue;
    return { message: entry.data.msg, hint: entry.data.hint };
  }
  return undefined;
}

/** What a role said of its failure: its error line's message and hint. */
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
