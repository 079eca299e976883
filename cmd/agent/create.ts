import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const create: Command = {
  summary: "Create an agent with its own ID, folders, spec and sandbox file",
  usage:
    "lnk agent create [<name>] [--harness <h>] [--acp-command <cmd>] [--model <m>] [--model-url <url>] " +
    "[--files <dir>] [--json]",
  examples: [
    "lnk agent create work",
    "lnk agent create research --model deepseek/deepseek-chat",
    "lnk agent create code --files ~/src/app",
    'lnk agent create q --harness acp --acp-command "qwen --acp"',
  ],
  details: "The first agent is `main`. --files picks a Home of yours (a repository, say); the agent's own\n" +
    "folder (Agent/, Config/) stays in ~/Link/Agents/<name>. --harness acp runs any stdio ACP agent named\n" +
    "by --acp-command, in the agent's sandbox under Link's hub (docs/adapters.md).",
  async run(argv, io) {
    const flags = parseFlags(argv, {
      string: ["harness", "acp-command", "model", "model-url", "files"],
      boolean: ["json"],
      positionals: 1,
    }, this.usage);
    const { createAgent, layoutOf } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await createAgent(ctx, flags.positionals[0], {
      harness: flags.string("harness"),
      model: flags.string("model"),
      modelUrl: flags.string("model-url"),
      files: flags.string("files"),
      acpCommand: flags.string("acp-command"),
      cwd: io.env.get("PWD"),
    });
    const layout = layoutOf(ctx.paths, agent);
    if (flags.bool("json")) {
      io.print({
        ...agent,
        folders: { root: layout.root, home: layout.home, agent: layout.agent, config: layout.config },
      });
      return;
    }
    io.print([
      `Created agent "${agent.name}" (${agent.id})`,
      `  folders: ${layout.root}${agent.home ? ` (Home: ${agent.home})` : ""}`,
      `  harness: ${agent.harness}, port ${agent.ports.endpoint}`,
      `Start it with \`lnk agent start${agent.name === "main" ? "" : ` --agent ${agent.name}`}\``,
    ].join("\n"));
  },
};
