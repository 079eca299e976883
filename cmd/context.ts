import type { AgentContext } from "../core/agent/mod.ts";
import type { Io } from "./command.ts";

/**
 * The agent context of a command: its home, its environment, and progress to stderr. Agents'
 * modules load here, when a command that needs them runs, never with the command tree (a help or
 * a usage error waits on none of them).
 */
export async function contextOf(io: Io): Promise<AgentContext> {
  const { agentContext } = await import("../core/agent/mod.ts");
  return agentContext(io.env, { home: io.home, note: (text) => io.note(text) });
}
