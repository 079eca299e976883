import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { table } from "../table.ts";

export const list: Command = {
  summary: "List your agents",
  usage: "lnk agent list [--json]",
  examples: ["lnk agent list", "lnk agent list --json"],
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["json"] }, this.usage);
    const { agentStatus, listAgents } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agents = await Promise.all(
      (await listAgents(ctx)).map(async (a) => ({ settings: a, status: await agentStatus(ctx, a) })),
    );
    if (flags.bool("json")) {
      io.print({
        agents: agents.map(({ settings, status }) => ({
          name: settings.name,
          id: settings.id,
          owner: settings.owner,
          harness: settings.harness,
          model: settings.model ?? null,
          state: status.state,
          sandbox: status.sandbox,
          ports: settings.ports,
          bots: settings.bots,
        })),
      });
      return;
    }
    if (agents.length === 0) {
      io.print("No agents yet. Create one with `lnk agent create main`");
      return;
    }
    io.print(table(
      ["NAME", "ID", "HARNESS", "STATE", "PORT", "SANDBOX"],
      agents.map((
        { settings: a, status: s },
      ) => [a.name, a.id, a.harness, s.state, String(a.ports.endpoint), s.sandbox]),
    ));
  },
};
