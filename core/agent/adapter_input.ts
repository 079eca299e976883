import type { AdapterInput } from "../adapters/mod.ts";
import { type AgentSettings, harnessSettingsOf } from "./settings.ts";

/**
 * The adapter's input: the agent without keys or tokens (GRT-15), `proxied` (GRT-23), the risks
 * allowed (ADP-13, GRT-21) and the harness's install folder (docs/adapters.md).
 */
export function adapterInput(
  agent: AgentSettings,
  proxied: boolean,
  more: { install?: string; allowed?: readonly string[] } = {},
): AdapterInput {
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      harness: agent.harness,
      ports: agent.ports,
      settings: harnessSettingsOf(agent, agent.harness),
    },
    allowed: [...more.allowed ?? []],
    proxied,
    ...(more.install ? { install: more.install } : {}),
  };
}
