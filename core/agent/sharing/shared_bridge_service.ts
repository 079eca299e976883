import { join } from "node:path";
import { type LinkPaths, roleArgv, roleEnv } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import { type ServiceDefinition, SHARED_BRIDGE_NAMES } from "../services/mod.ts";

/** The shared bridge's control socket, in `~/.lnk/run/`, which no sandbox sees. */
export function sharedBridgeSocketPath(paths: LinkPaths): string {
  return join(paths.run, "bridges.sock");
}

/**
 * The shared bridge as a service of its own (PRC-16): `lnk-bridges.service`, `link.bridges`, or a
 * detached `lnk-bridges` under `~/.lnk/run/`, so stopping the agent that started it leaves it.
 */
export function sharedBridgeService(ctx: AgentContext): ServiceDefinition {
  return {
    role: "bridge",
    // The detached backend checks its PID is still this role by a word of its command line.
    agentId: "bridges",
    names: SHARED_BRIDGE_NAMES,
    description: "Link's shared bridge: one bridge for every agent of this machine",
    argv: roleArgv(["agent", "bridges"]),
    env: { ...roleEnv(), ...ctx.env.toObject(), HOME: ctx.paths.home },
  };
}
