import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const stop: Command = {
  summary: "Stop an agent and its bridge, and unbind its key",
  usage: "lnk agent stop [--agent <name>] [--json]",
  examples: ["lnk agent stop", "lnk agent stop --agent work"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { agentStatus, resolveAgent, stopAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    await stopAgent(ctx, agent);
    const status = await agentStatus(ctx, agent);
    io.print(flags.bool("json") ? status : `Stopped "${agent.name}"`);
  },
};
