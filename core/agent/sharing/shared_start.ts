import { join } from "node:path";
import { LinkError, lockFile, ROLE_LOGS_HINT } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { pickBackend, SHARED_BRIDGE_NAMES } from "../services/mod.ts";
import { waitForSocket } from "../endpoint_socket.ts";
import type { SyncAnswer } from "./bridges_answer.ts";
import { putOnSharedBridge, takeOffSharedBridge } from "./bridges_file.ts";
import { askSharedBridge, sharedBridgeGone, syncSharedBridge } from "./shared_bridge_client.ts";
import { sharedBridgeService, sharedBridgeSocketPath } from "./shared_bridge_service.ts";

/** How many times a start tries again (a bridge ending after its linger, a port taken meanwhile). */
const ATTEMPTS = 4;

/** What a start on the shared bridge may do besides putting the agent on it. */
export interface SharedStartOptions {
  /** Moves the agent to another block of ports when another program holds its port (PRT-4). */
  moveBlock: (agent: AgentSettings, busyPort: number) => Promise<AgentSettings>;
}

/**
 * Starts an agent on the shared bridge (PRC-6): puts it on the bridge's list, starts the bridge
 * when none runs (a service of its own, PRC-16), and waits until the bridge carries the agent
 * awake; its key must be bound already. A bridge ending after its linger is replaced, a port
 * taken moves the agent (PRT-4). On failure the agent is taken off again and the error says why.
 */
export async function startOnSharedBridge(
  ctx: AgentContext,
  agent: AgentSettings,
  options: SharedStartOptions,
): Promise<AgentSettings> {
  try {
    for (let attempt = 1;; attempt++) {
      await putOnSharedBridge(ctx.paths, agent.id);
      const answer = await syncOnce(ctx, agent.id);
      if (!answer.error) return agent;
      const again = attempt < ATTEMPTS;
      if (again && answer.ending) continue;
      if (again && answer.error.code === "PORT_UNAVAILABLE") {
        agent = await options.moveBlock(agent, agent.ports.endpoint);
        continue;
      }
      throw new LinkError(answer.error.code, `Cannot start agent "${agent.name}": ${answer.error.message}`, {
        hint: answer.error.hint ?? ROLE_LOGS_HINT,
      });
    }
  } catch (err) {
    await leaveSharedBridge(ctx, agent.id);
    throw err;
  }
}

/**
 * Takes the agent off the shared bridge and waits until the bridge has closed its door and
 * stopped its agent service; says whether it was on it.
 */
export async function leaveSharedBridge(ctx: AgentContext, agentId: string): Promise<boolean> {
  const was = await takeOffSharedBridge(ctx.paths, agentId);
  if (was) await syncSharedBridge(ctx.paths, { agent: agentId }).catch(() => undefined);
  return was;
}

/**
 * `lnk agent start --foreground` on the shared bridge: stays until the signal aborts, starting
 * the bridge again whenever it is gone (PRC-16: a session of its own, which an agent in a terminal
 * starts again), then takes the agent off it.
 */
export async function stayOnSharedBridge(
  ctx: AgentContext,
  agent: AgentSettings,
  signal: AbortSignal,
): Promise<void> {
  try {
    while (!signal.aborted) {
      await sharedBridgeGone(ctx.paths, signal);
      if (signal.aborted) break;
      ctx.note?.("The shared bridge is gone: starting it again");
      const answer = await syncOnce(ctx, agent.id);
      ctx.note?.(
        answer.error
          ? `Cannot carry agent "${agent.name}" again: ${answer.error.message}`
          : `The shared bridge carries agent "${agent.name}" again`,
      );
    }
  } finally {
    await leaveSharedBridge(ctx, agent.id);
  }
}

/** One sync, starting a bridge first when none answers at its socket or the one there is ending. */
async function syncOnce(ctx: AgentContext, agentId: string): Promise<SyncAnswer> {
  const answer = await syncSharedBridge(ctx.paths, { agent: agentId, wake: true });
  if (answer && !answer.ending) return answer;
  await ensureSharedBridge(ctx);
  return await syncSharedBridge(ctx.paths, { agent: agentId, wake: true }) ??
    {
      agent: null,
      ending: true,
      error: { code: "SERVICE_FAILED", message: "The shared bridge stopped answering" },
    };
}

/**
 * Starts the shared bridge's service unless one answers at its socket and is not ending: one start
 * at a time (a lock), a bridge ending after its linger or stuck stopped first (waited for).
 */
export async function ensureSharedBridge(ctx: AgentContext): Promise<void> {
  await Deno.mkdir(ctx.paths.run, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(join(ctx.paths.run, "bridges.start.lock"));
  const seen = await askSharedBridge(ctx.paths);
  if (seen && !seen.ending) return;
  const backend = await pickBackend(ctx.paths, ctx.env);
  await backend.stop(SHARED_BRIDGE_NAMES);
  const started = await backend.start(sharedBridgeService(ctx));
  const socket = sharedBridgeSocketPath(ctx.paths);
  // Service managers return before the role's ready line; the detached backend after it.
  if (started.ready.socket !== socket) await waitForSocket(socket);
}
