import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { type HarnessSandboxOptions, startHarnessSandbox } from "./harness_sandbox.ts";

/**
 * `lnk agent harness run -- <command>` (SBX-6): runs a command as the agent's harness would, under
 * the harness's own policy with a proxy and rules of its own, beside the running agent (or with
 * none running), the terminal's streams relayed through pipes unless told. Returns the command's exit code; a command
 * ended by a signal gives 128 + its number, as a shell says.
 */
export async function harnessRun(
  ctx: AgentContext,
  agent: AgentSettings,
  options: HarnessSandboxOptions,
): Promise<number> {
  await using sandbox = await startHarnessSandbox(ctx, agent, {
    stdin: "relay",
    stdout: "relay",
    stderr: "relay",
    ...options,
  });
  for (const notice of sandbox.plan.notices) ctx.note?.(notice);
  return (await sandbox.status).code;
}
