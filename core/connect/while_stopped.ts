import { LinkError } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, agentStatus, stopAgent } from "../agent/mod.ts";
import { startAgent } from "../agent/launch/mod.ts";

/**
 * Runs `change` with the agent stopped (a pairing must be the platform's only reader, ACS-5), then
 * starts the agent again if it ran, with the settings `change` returned, or as it was when
 * `change` failed: a failed change leaves the agent as it found it.
 */
export async function whileStopped<T extends { agent: AgentSettings }>(
  ctx: AgentContext,
  agent: AgentSettings,
  change: () => Promise<T>,
): Promise<T> {
  const wasUp = (await agentStatus(ctx, agent)).state !== "stopped";
  if (wasUp) await stopAgent(ctx, agent);
  let done: T | undefined;
  try {
    done = await change();
    return done;
  } finally {
    if (wasUp) {
      await startAgent(ctx, done?.agent ?? agent).catch((err) => {
        throw new LinkError("SERVICE_FAILED", `Cannot start agent "${agent.name}" again`, {
          hint: "Start it with `lnk agent start`",
          cause: err,
        });
      });
    }
  }
}
