import { join } from "node:path";
import { announceReady, LinkError, logger, raiseFdLimit } from "../base/mod.ts";
import { type AgentContext, agentContext } from "../agent/mod.ts";
import { readKey } from "../agent/mod.ts";
import { loadSettings } from "../agent/mod.ts";
import { type AgentLaunchOptions, prepareAgentLaunch } from "../agent/launch/mod.ts";
import { roleAgentId } from "../agent/mod.ts";

const log = logger("agent");

/** What the agent role runs with besides its flags; tests run it in-process with fakes. */
export type AgentRoleOptions = Omit<AgentLaunchOptions, "signal"> & {
  /** The role's environment (HOME picks the paths); this process's unless told. */
  readonly env?: AgentContext["env"];
};

/**
 * `lnk agent run --agent <id>`: the agent as a service of its own (serviceStarter's; each agent's
 * bridge now starts its agent itself, see inBridgeStarter). Starts its harness with the agent's
 * key, in its sandbox behind its own proxy unless its sandbox is off (`--no-sandbox`, GRT-6), says
 * it is ready when the harness is, and ends with it. There is no terminal here: a machine that
 * cannot make the sandbox fails the start with the reason, never a fallback to no sandbox (SBX-3).
 */
export async function runAgentRole(
  args: string[],
  signal: AbortSignal,
  options: AgentRoleOptions = {},
): Promise<number> {
  // It serves the agent's proxy in this process.
  log.debug("Descriptor limit", { ...raiseFdLimit() });
  const id = roleAgentId(args);
  const ctx = agentContext(options.env ?? Deno.env);
  const settings = await loadSettings(ctx.paths, id);
  const key = await readKey(ctx.paths, id);
  if (!key) {
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot run agent "${settings.name}": it has no key bound`, {
      hint: "Start it with `lnk agent start`",
    });
  }
  const socket = join(ctx.paths.net(id), "endpoint.sock");
  const launch = await prepareAgentLaunch(ctx, settings, { ...options, signal });
  await using harness = await launch.launch(key, { socket, signal });
  log.info("Agent started", {
    agent: id,
    harness: settings.harness,
    pid: harness.pid,
    sandboxed: harness.sandboxed,
    proxied: harness.proxied,
  });
  announceReady({ socket, harnessPid: harness.pid, sandboxed: harness.sandboxed });
  const stopped = new Promise<"stopped">((resolve) => {
    if (signal.aborted) resolve("stopped");
    signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
  const outcome = await Promise.race([harness.status, stopped]);
  await harness.stop();
  // A sandbox's processes end a moment after it: no caller may reach a listener going away.
  await Deno.remove(socket).catch(() => {});
  if (outcome === "stopped") {
    log.info("Agent stopped", { agent: id });
    return 0;
  }
  log.error("Harness exited unbidden", { agent: id, code: outcome.code });
  return 1;
}
