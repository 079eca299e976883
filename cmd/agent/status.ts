import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { statusText } from "./status_text.ts";

export const status: Command = {
  summary: "Say whether an agent runs, its ports, its harness and its sandbox",
  usage: "lnk agent status [--agent <name>] [--json]",
  examples: ["lnk agent status", "lnk agent status --agent work --json"],
  details: "Looks only at this machine: it never calls a model provider (MDL-2).",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { agentStatus, resolveAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const s = await agentStatus(ctx, await resolveAgent(ctx, flags.string("agent")));
    io.print(flags.bool("json") ? s : statusText(s));
  },
};
