import { z } from "zod";
import { type ServiceBackend, SHARED_BRIDGE_NAMES } from "../../services/mod.ts";
import type { LoggedError } from "../door/mod.ts";

const LogEntry = z.looseObject({
  time: z.string(),
  level: z.string(),
  msg: z.string(),
  hint: z.string().optional(),
  agent: z.string().optional(),
});

/**
 * The first error the shared bridge logged for one agent at or after `sinceMs` (the harness's
 * own reason, before the wrappers above it), leaving out lines naming another agent: the log is
 * every agent's.
 */
export async function firstAgentError(
  backend: ServiceBackend,
  agentId: string,
  sinceMs: number,
): Promise<LoggedError | undefined> {
  const text = await backend.logs(SHARED_BRIDGE_NAMES, 200).catch(() => "");
  for (const line of text.split("\n")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = LogEntry.safeParse(parsed);
    if (!entry.success || entry.data.level !== "error" || Date.parse(entry.data.time) < sinceMs) continue;
    if (entry.data.agent !== undefined && entry.data.agent !== agentId) continue;
    return { message: entry.data.msg, hint: entry.data.hint };
  }
  return undefined;
}
