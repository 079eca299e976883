import type { LinkPaths } from "../../base/mod.ts";
import { type AgentSettings, updateSettings } from "../settings.ts";

/**
 * `lnk agent secret wire|hold`: sets, for one agent, whether the proxy adds its model key (SBX-16)
 * or its harness holds the key (SBX-17), kept in its settings as `[secrets] wire`. Returns the
 * settings as written; a running agent takes it at its next start.
 */
export async function setKeyWiring(
  paths: LinkPaths,
  agent: AgentSettings,
  wire: boolean,
): Promise<AgentSettings> {
  return await updateSettings(paths, agent.id, (s) => ({ ...s, secrets: { ...s.secrets, wire } }));
}
