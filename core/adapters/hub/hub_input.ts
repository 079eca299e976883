import { z } from "zod";
import type { AcpCommand } from "./acp_child.ts";

/**
 * What the hub is handed on stdin (never in argv): the agent, its key, the ACP command its adapter
 * gave, the model as the sandbox reaches it, and its Home as the sandbox shows it.
 */
export const HubInput = z.strictObject({
  agents: z.array(z.strictObject({
    id: z.string(),
    name: z.string(),
    key: z.string(),
    acp: z.strictObject({
      command: z.array(z.string()).min(1),
      env: z.record(z.string(), z.string()).default({}),
    }),
    model: z.strictObject({ baseUrl: z.string(), model: z.string(), key: z.string().optional() }).optional(),
    folders: z.strictObject({ home: z.string(), agent: z.string() }).optional(),
    /** Where the hub keeps its sessions; `.lnk` of its HOME (the harness's home, in a sandbox) when absent. */
    state: z.string().optional(),
  })).length(1),
});
export type HubInput = z.infer<typeof HubInput>;

/**
 * The command as the hub runs it: the adapter's variables, then the model as OpenAI-compatible
 * variables (what most ACP agents read), and as Link's own names. The agent's key is
 * never among them.
 */
export function hubCommand(entry: HubInput["agents"][number], fallbackCwd: string): AcpCommand {
  const env: Record<string, string> = { ...entry.acp.env };
  if (entry.model) {
    const key = entry.model.key ?? "none";
    Object.assign(env, {
      OPENAI_BASE_URL: entry.model.baseUrl,
      OPENAI_API_KEY: key,
      OPENAI_MODEL: entry.model.model,
      LNK_MODEL_BASE_URL: entry.model.baseUrl,
      LNK_MODEL_KEY: key,
      LNK_MODEL: entry.model.model,
    });
  }
  return { command: entry.acp.command, env, cwd: entry.folders?.home ?? fallbackCwd };
}
