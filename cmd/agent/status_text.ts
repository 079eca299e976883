import type { AgentStatus } from "../../core/agent/mod.ts";

/** One agent's status in words. */
export function statusText(s: AgentStatus): string {
  // The one bridge every agent shares, or the agent's own (PRC-6).
  const bridge = s.bridge === "shared" ? "shared bridge" : "bridge";
  const state = s.state === "died" ? `DIED (${s.reason ?? "see `lnk agent logs`"})` : s.state;
  return [
    `${s.name} (${s.id}): ${state}`,
    `  harness: ${s.harness}, sandbox ${s.sandbox}${s.sharedHarness ? " (its owner's shared harness)" : ""}`,
    `  port:    ${s.ports.endpoint} (block ${s.ports.block}-${s.ports.block + 9})`,
    `  services: ${bridge} ${serviceText(s.services.bridge)}, agent ${serviceText(s.services.agent)}`,
    ...Object.entries(s.connections).map(([name, c]) =>
      `  ${name}: ${c.state}${c.since ? ` since ${c.since}` : ""}${c.why ? ` (${c.why})` : ""}`
    ),
    // A broken spec or sandbox file says so here, before the next start fails on it.
    ...(s.config
      ? [`  config:  BROKEN: ${s.config.message}`, ...(s.config.hint ? [`    hint: ${s.config.hint}`] : [])]
      : []),
  ].join("\n");
}

function serviceText(s: { running: boolean; pid?: number; died?: boolean }): string {
  if (s.running) return `running (pid ${s.pid})`;
  return s.died ? "died" : "stopped";
}
