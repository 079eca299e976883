/**
 * `lnk agent run --agent <id>`: the agent's harness as a service of its own, for a bridge that runs
 * its agent through the service backend (serviceStarter). Its modules load only when it runs, so it
 * loads nothing of the bridge's or the CLI's.
 * @module
 */
/** The role. */
export async function runAgentRunRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runAgentRole } = await import("./run_agent_run_role.ts");
  return await runAgentRole(args, signal);
}
