import { join } from "node:path";
import { LinkError, type LinkPaths, roleArgv, roleEnv } from "../../base/mod.ts";
import type { AgentContext } from "../context.ts";
import type { ServiceDefinition, ServiceNames } from "../services/mod.ts";

/** An owner as a service name holds it: owners are `local-<machine>-<uid>` or `acct-<id>`. */
function ownerWord(owner: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,80}$/.test(owner)) {
    throw new LinkError(
      "CONFIG_INVALID",
      `Cannot run a shared harness for owner "${owner}": not a plain name`,
      {
        hint: "An owner is local-<machine>-<uid> or acct-<id>; check the agent's settings.toml",
      },
    );
  }
  return owner;
}

/** One owner's shared harness service names (PRC-4: one per owner, never across owners). */
export function sharedHarnessNames(owner: string): ServiceNames {
  const word = ownerWord(owner);
  return {
    base: `lnk-harness-${word}`,
    systemd: `lnk-harness-${word}.service`,
    launchd: `link.harness.${word}`,
  };
}

/** The shared harness's control socket, in `~/.lnk/run/`, which no sandbox sees. */
export function sharedHarnessSocketPath(paths: LinkPaths, owner: string): string {
  return join(paths.run, `harness-${ownerWord(owner)}.sock`);
}

/**
 * One owner's shared harness as a service of its own (PRC-16), so stopping the agent that started
 * it leaves it to its other agents: `lnk harness shared --owner <owner>`.
 */
export function sharedHarnessService(ctx: AgentContext, owner: string): ServiceDefinition {
  return {
    role: "agent",
    // The detached backend checks its PID is still this role by a word of its command line.
    agentId: ownerWord(owner),
    names: sharedHarnessNames(owner),
    description: `Link's shared harness for the agents of ${owner}`,
    argv: roleArgv(["harness", "shared", "--owner", owner]),
    env: { ...roleEnv(), ...ctx.env.toObject(), HOME: ctx.paths.home },
  };
}

/** What the shared harness says of itself. */
export interface SharedHarnessState {
  readonly owner: string;
  /** Its sandbox's process, while one runs. */
  readonly pid: number | null;
  readonly agents: readonly string[];
  /** No agent is left and its linger counts down (PRC-15). */
  readonly lingering: boolean;
  /** It is ending: a start must wait for it and start another. */
  readonly ending: boolean;
}
