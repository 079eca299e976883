import { LinkError } from "../../core/base/mod.ts";
import type { LogLine } from "../../core/agent/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const logs: Command = {
  summary: "Show the logs of an agent's services: its harness, its bridge, its provider's errors",
  usage: "lnk agent logs [--agent <name>] [--lines <n>] [--json]",
  examples: ["lnk agent logs", "lnk agent logs --agent work --lines 50", "lnk agent logs --json"],
  details: "Each line is labelled with the service that wrote it. --json prints one object: the agent's\n" +
    'name and ID, and its lines as {"service", "entry"} (a line Link wrote as JSON) or {"service", "text"}.',
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent", "lines"], boolean: ["json"] }, this.usage);
    const lines = Number(flags.string("lines") ?? 200);
    if (!Number.isInteger(lines) || lines <= 0) {
      throw new LinkError(
        "USAGE",
        `Cannot read --lines "${flags.string("lines")}": it is a whole number above 0`,
        { hint: `Usage: ${this.usage}` },
      );
    }
    const { agentLogs, resolveAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const found = await agentLogs(ctx, agent, lines);
    if (flags.bool("json")) io.print({ name: agent.name, id: agent.id, lines: found.map(jsonLine) });
    else if (!found.length) io.print("No logs yet: the agent has not run");
    else io.print(found.map((l) => `${l.service}: ${l.line}`).join("\n"));
  },
};

function jsonLine(
  { service, line }: LogLine,
): { service: string; entry: unknown } | { service: string; text: string } {
  try {
    const entry: unknown = JSON.parse(line);
    if (entry !== null && typeof entry === "object" && !Array.isArray(entry)) return { service, entry };
  } catch {
    // A line that is not Link's JSON (a harness's own output): kept as text.
  }
  return { service, text: line };
}
