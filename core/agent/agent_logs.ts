import type { AgentContext } from "./context.ts";
import type { AgentSettings } from "./settings.ts";
import { pickBackend, serviceNames } from "./services/mod.ts";
import { agentLinesOf, sharedBridgeLogs, sharedHarnessNames } from "./sharing/mod.ts";

/** Which of the agent's services wrote a line. */
export type LogSource = "bridge" | "agent" | "shared bridge" | "shared harness";

/** One line of an agent's logs, as its service wrote it. */
export interface LogLine {
  service: LogSource;
  line: string;
}

/**
 * The last `lines` lines of each of the agent's services: its bridge and agent services, the
 * shared bridge's lines about it, and its owner's shared harness's lines about it (PRC-2).
 */
export async function agentLogs(ctx: AgentContext, agent: AgentSettings, lines = 200): Promise<LogLine[]> {
  const backend = await pickBackend(ctx.paths, ctx.env);
  const found: LogLine[] = [];
  const add = (service: LogSource, text: string) => {
    for (const line of text.split("\n").filter(Boolean)) found.push({ service, line });
  };
  for (const role of ["bridge", "agent"] as const) {
    add(role, await backend.logs(serviceNames(role, agent.id), lines));
  }
  add("shared bridge", await sharedBridgeLogs(ctx, agent.id, lines));
  add(
    "shared harness",
    await agentLinesOf(ctx, sharedHarnessNames(agent.owner), agent.id, lines).catch(() => ""),
  );
  return found;
}
