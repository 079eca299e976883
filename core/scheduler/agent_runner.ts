import type { LinkPaths } from "../base/mod.ts";
import { agentRunnerFilePath, writeRunnerFile } from "./runner_file.ts";
import { type RunnerProcess, startRunner } from "./runner_process.ts";

/**
 * The runner beside an agent's own bridge (PRC-5: "two processes an agent"): its file, in the
 * agent's state folder, lists the agent alone; the runner is the bridge's child, in the agent's
 * zone, and ends with it.
 */
export async function startAgentRunner(
  paths: LinkPaths,
  agent: { id: string; zone: string; wayIn: string },
): Promise<RunnerProcess> {
  const file = agentRunnerFilePath(paths, agent.id);
  await writeRunnerFile(file, { zone: agent.zone, agents: [{ id: agent.id, way_in: agent.wayIn }] });
  return await startRunner(agent.zone, { file });
}
