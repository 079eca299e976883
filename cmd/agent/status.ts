import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { statusText } from "./status_text.ts";

export const status: Command = {
  summary: "Say whether an agent runs, its ports, its harness and its sandbox",
  usage: "lnk agent status [--agent <name>] [--json]",
  examples: ["lnk agent status", "lnk agent status --agent work --json"],
  details: "Looks only at this machine: it never calls a model provider (MDL-2). A running harness from " +
    "outside Link is asked plainly at its port; only without a 2xx does its adapter's health check run, " +
    "in a sandbox reaching that port alone (SBX-15).",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { agentStatus, resolveAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const s = await agentStatus(ctx, agent);
    const { harnessHealth } = await import("../../core/agent/setup/mod.ts");
    const health = s.state === "running" ? await harnessHealth(ctx, agent) : undefined;
    if (flags.bool("json")) io.print(health ? { ...s, health } : s);
    else {
      const said = health &&
        `  health:  ${health.ok ? "ok" : "FAILING"}${health.detail ? ` (${health.detail})` : ""}`;
      io.print(said ? `${statusText(s)}\n${said}` : statusText(s));
    }
  },
};
