import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const disconnect: Command = {
  summary: "Disconnect a connection from the agent: its settings and its token go",
  usage: "lnk agent disconnect <connection> [--agent <name>] [--json]",
  examples: ["lnk agent disconnect telegram", "lnk agent disconnect telegram --agent work"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot disconnect: name the connection", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { disconnect: disconnectConnection } = await import("../../core/connect/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    await disconnectConnection(ctx, agent, name);
    if (flags.bool("json")) io.print({ agent: agent.name, disconnected: name });
    else io.print(`Disconnected ${name} from agent "${agent.name}"`);
  },
};
