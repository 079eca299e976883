/**
 * `lnk agent run --agent <id>`: the agent's harness as a service of its own (serviceStarter's). Its
 * modules load only when it runs, so it loads nothing of the bridge's or the CLI's.
 */
export async function runAgentRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runAgentRole: run } = await import("./run_agent_role.ts");
  return await run(args, signal);
}

/** `lnk agent bridge --agent <id> [--foreground]`: the agent's bridge, its modules loaded when it runs. */
export async function runBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runBridgeRole: run } = await import("./run_bridge_role.ts");
  return await run(args, signal);
}
