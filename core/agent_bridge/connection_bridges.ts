import { type Clock, logger, type RoleProcess, spawnRole, SYSTEM_CLOCK } from "../base/mod.ts";
import { type AgentSettings, writeConnectionState } from "../agent/mod.ts";
import type { LinkPaths } from "../base/mod.ts";

const log = logger("bridge");

/** How long the bridge waits before it starts a connection's bridge that ended again. */
const RESTART_MS = 2_000;

/**
 * Starts a `lnk connection bridge` for each connection in the agent's settings (CON-11), each a
 * child of this bridge that ends with it, and starts one that ends on its own again after a
 * pause, saying so in its state. The bridge knows no connection by name (CON-3): each is a word of
 * `bots`. Resolves once every one has stopped, after `signal` aborts.
 */
export async function runConnectionBridges(
  paths: LinkPaths,
  agent: AgentSettings,
  signal: AbortSignal,
  clock: Clock = SYSTEM_CLOCK,
): Promise<void> {
  await Promise.all(Object.keys(agent.bots).map((name) => keepCarrying(paths, agent, name, signal, clock)));
}

async function keepCarrying(
  paths: LinkPaths,
  agent: AgentSettings,
  name: string,
  signal: AbortSignal,
  clock: Clock,
): Promise<void> {
  while (!signal.aborted) {
    let child: RoleProcess | undefined;
    let why: string;
    try {
      child = await spawnRole(["connection", "bridge", "--agent", agent.id, "--connection", name], {
        stderr: "inherit",
        signal,
      });
      const stop = () => void child?.stop();
      signal.addEventListener("abort", stop, { once: true });
      const status = await child.child.status;
      signal.removeEventListener("abort", stop);
      if (signal.aborted) return;
      why = `its bridge ended with code ${status.code}`;
    } catch (err) {
      if (signal.aborted) return;
      why = err instanceof Error ? err.message : String(err);
    }
    log.warn("A connection's bridge ended: starting it again", { agent: agent.id, connection: name, why });
    await writeConnectionState(paths, agent.id, name, {
      state: "reconnecting",
      why,
      at: new Date(clock.now()).toISOString(),
    }).catch(() => {});
    await clock.sleep(RESTART_MS, signal).catch(() => {});
  }
}
