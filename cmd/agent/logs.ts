import { LinkError } from "../../core/base/mod.ts";
import { agentLogs, resolveAgent } from "../../core/agent/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const logs: Command = {
  summary: "Show the logs of an agent's services: its harness, its bridge, its provider's errors",
  usage: "lnk agent logs [--agent <name>] [--lines <n>]",
  examples: ["lnk agent logs", "lnk agent logs --agent work --lines 50"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent", "lines"] }, this.usage);
    const lines = Number(flags.string("lines") ?? 200);
    if (!Number.isInteger(lines) || lines <= 0) {
      throw new LinkError(
        "USAGE",
        `Cannot read --lines "${flags.string("lines")}": it is a whole number above 0`,
        { hint: `Usage: ${this.usage}` },
      );
    }
    const ctx = contextOf(io);
    const text = await agentLogs(ctx, await resolveAgent(ctx, flags.string("agent")), lines);
    io.print(text || "No logs yet: the agent has not run");
  },
};
