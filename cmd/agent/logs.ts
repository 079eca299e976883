import { LinkError } from "../../core/base/mod.ts";
import type { LogLine } from "../../core/agent/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const logs: Command = {
  summary: "Show the logs of an agent's services: its harness, its bridge, its provider's errors",
  usage: "lnk agent logs [--agent <name>] [--connection <name>] [--lines <n>] [--json]",
  examples: [
    "lnk agent logs",
    "lnk agent logs --agent work --lines 50",
    "lnk agent logs --connection discord",
    "lnk agent logs --json",
  ],
  details:
    "Each line is labelled with the service that wrote it. --connection shows only the lines of one\n" +
    "connection's bridge (telegram, slack, discord, signal): connected, each message received and answered\n" +
    "(ids, never text), each retry, reconnect and why it stopped. --json prints one object: the agent's\n" +
    'name and ID, and its lines as {"service", "entry"} (a line Link wrote as JSON) or {"service", "text"}.',
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "lines", "connection"], boolean: ["json"] },
      this.usage,
    );
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
    const connection = flags.string("connection");
    if (connection !== undefined && !Object.hasOwn(agent.bots, connection)) {
      const has = Object.keys(agent.bots);
      throw new LinkError(
        "USAGE",
        `Cannot show the logs of connection "${connection}": agent "${agent.name}" has no such connection`,
        {
          hint: has.length
            ? `Its connections: ${has.sort().join(", ")}`
            : "It has no connection yet: connect one with `lnk agent connect telegram` (or slack, discord, signal)",
        },
      );
    }
    const found = connection === undefined
      ? await agentLogs(ctx, agent, lines)
      : (await agentLogs(ctx, agent, Number.MAX_SAFE_INTEGER)).filter((l) => connectionOf(l) === connection)
        .slice(-lines);
    if (flags.bool("json")) io.print({ name: agent.name, id: agent.id, lines: found.map(jsonLine) });
    else if (!found.length) {
      io.print(
        connection === undefined ? "No logs yet: the agent has not run" : `No logs of ${connection} yet`,
      );
    } else io.print(found.map((l) => `${l.service}: ${l.line}`).join("\n"));
  },
};

/** The connection a line of Link's names (its connection's bridge names it on each), if any. */
function connectionOf(line: LogLine): string | undefined {
  const parsed = jsonLine(line);
  if (!("entry" in parsed)) return undefined;
  const named = (parsed.entry as { connection?: unknown }).connection;
  return typeof named === "string" ? named : undefined;
}

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
