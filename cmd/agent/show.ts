import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { describePermissions } from "./grants_text.ts";

export const show: Command = {
  summary: "Show an agent: its ID, owner, harness, folders and ports, or what every path of it runs with",
  usage: "lnk agent show [--agent <name>] [--permissions] [--json]",
  examples: ["lnk agent show", "lnk agent show --agent work --permissions"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json", "permissions"] }, this.usage);
    const { agentStatus, layoutOf, loadAgentConfig, resolveAgent } = await import("../../core/agent/mod.ts");
    const grants = await import("../../core/agent/grants/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    if (flags.bool("permissions")) {
      const permissions = await grants.agentPermissions(ctx, agent);
      io.print(flags.bool("json") ? permissions : describePermissions(permissions));
      return;
    }
    const layout = layoutOf(ctx.paths, agent);
    const config = await loadAgentConfig(ctx.paths, agent);
    const status = await agentStatus(ctx, agent);
    const shown = {
      name: agent.name,
      id: agent.id,
      owner: agent.owner,
      harness: agent.harness,
      model: agent.model ?? null,
      state: status.state,
      sandbox: status.sandbox,
      ports: agent.ports,
      folders: { root: layout.root, home: layout.home, agent: layout.agent, config: layout.config },
      spec: config.spec,
    };
    if (flags.bool("json")) {
      io.print(shown);
      return;
    }
    io.print([
      `${agent.name} (${agent.id})`,
      `  owner:   ${agent.owner}`,
      `  harness: ${agent.harness}${agent.model ? `, model ${agent.model}` : ""}`,
      `  state:   ${status.state}, sandbox ${status.sandbox}`,
      `  ports:   ${agent.ports.endpoint} (block ${agent.ports.block}-${agent.ports.block + 9})`,
      `  Home:    ${layout.home}`,
      `  Agent:   ${layout.agent}`,
      `  Config:  ${layout.config}`,
    ].join("\n"));
  },
};
