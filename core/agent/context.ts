import { homeFrom, LinkPaths } from "../base/mod.ts";

/** What the agent functions work with: the paths under a home, the environment, a way to say progress. */
export interface AgentContext {
  readonly paths: LinkPaths;
  readonly env: { get(name: string): string | undefined; toObject(): Record<string, string> };
  /** Progress and notices for a person (stderr); silent when absent. */
  readonly note?: (text: string) => void;
}

/** A context from an environment (HOME picks the paths). */
export function agentContext(
  env: AgentContext["env"],
  options: { home?: string; note?: (text: string) => void } = {},
): AgentContext {
  return { paths: new LinkPaths(options.home ?? homeFrom(env)), env, note: options.note };
}
