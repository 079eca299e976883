import { agentStatus, layoutOf, loadAgentConfig, resolveAgent } from "../../core/agent/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { describeGrants } from "./grants_text.ts";

export const show: Command = {
  summary: "Show an agent: its ID, owner, harness, folders and ports, or what it may reach",
  usage: "lnk agent show [--agent <name>] [--permissions] [--json]",
  examples: ["lnk agent show", "lnk agent show --agent work --permissions"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json", "permissions"] }, this.usage);
    const ctx = contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const layout = layoutOf(ctx.paths, agent);
    const config = await loadAgentConfig(ctx.paths, agent);
    if (flags.bool("permissions")) {
      const grants = {
        agent: agent.name,
        sandbox: agent.sandbox.enabled ? "on" : "off",
        grants: config.sandbox,
      };
      io.print(
        flags.bool("json") ? grants : describeGrants(agent.name, agent.sandbox.enabled, config.sandbox),
      );
      return;
    }
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
