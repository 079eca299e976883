import { type ServiceBackend, SHARED_BRIDGE_NAMES } from "../agent/services/mod.ts";
import { firstLoggedError, type LoggedError } from "../agent/mod.ts";

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
  return firstLoggedError(await backend.logs(SHARED_BRIDGE_NAMES, 200).catch(() => ""), sinceMs, agentId);
}
