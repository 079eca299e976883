import { type AgentContext, agentContext } from "../core/agent/mod.ts";
import type { Io } from "./command.ts";

/** The agent context of a command: its home, its environment, and progress to stderr. */
export function contextOf(io: Io): AgentContext {
  return agentContext(io.env, { home: io.home, note: (text) => io.note(text) });
}
