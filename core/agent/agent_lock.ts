import { type HeldLock, LinkError, type LinkPaths, lockFile, lockNote, tryLockFile } from "../base/mod.ts";
import type { AgentSettings } from "./settings.ts";

/** What a command holding an agent's lock does to it. */
export type AgentChange = "start" | "stop" | "remove";

/**
 * Takes the agent's lock, so its start, stop and remove run one at a time across `lnk` commands.
 * A start finding another start at work refuses (AGENT_BUSY) rather than wait on it; anything
 * else waits its turn (a start after a stop, then, starts the agent again).
 */
export async function holdAgentLock(
  paths: LinkPaths,
  agent: AgentSettings,
  change: AgentChange,
): Promise<HeldLock> {
  const path = paths.agentLock(agent.id);
  const note = JSON.stringify({ change, pid: Deno.pid });
  try {
    if (change === "start") {
      const held = await tryLockFile(path, note);
      if (held) return held;
      const holder = await holderOf(path);
      if (holder?.change === "start") {
        throw new LinkError(
          "AGENT_BUSY",
          `Cannot start agent "${agent.name}": it is starting (another \`lnk agent start\` runs, pid ${holder.pid})`,
          { hint: "Wait for that command to end, then run `lnk agent status` to see how it went" },
        );
      }
    }
    return await lockFile(path, note);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    throw new LinkError("AGENT_NOT_FOUND", `Cannot ${change} agent "${agent.name}": it was removed`, {
      hint: "Run `lnk agent list` to see your agents",
    });
  }
}

/** What the lock's holder wrote it does; undefined when it has not written it yet. */
async function holderOf(path: string): Promise<{ change?: AgentChange; pid?: number } | undefined> {
  try {
    return JSON.parse(await lockNote(path)) as { change?: AgentChange; pid?: number };
  } catch {
    return undefined;
  }
}
