import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const use: Command = {
  summary: "Switch an agent's harness, asking for what the new one needs beyond the old",
  usage: "lnk agent use <harness> [--agent <name>] [--acp-command <cmd>] [--yes] [--json]",
  examples: [
    "lnk agent use link",
    'lnk agent use acp --acp-command "qwen --acp"',
    "lnk agent use demo --yes",
  ],
  details:
    "Lists each need of the new harness beyond the old one's, as `lnk agent allow` flags with what it\n" +
    "opens, and asks once (--yes grants the declared needs and required risks, leaves optional risks\n" +
    "off); no keeps the agent where it was. A narrower switch says so in one line and asks nothing.\n" +
    "It names the agent's connections the new harness does not answer; they stay in the settings, so\n" +
    "switching back brings them back. A running agent is restarted on the new harness. A failed switch\n" +
    "keeps the old harness and changes nothing on disk. `use acp` needs --acp-command, as create does.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "acp-command"], boolean: ["json", "yes"], positionals: 1 },
      this.usage,
    );
    const target = flags.positionals[0];
    if (!target) {
      throw new LinkError("USAGE", "Cannot switch: no harness was named", { hint: `Usage: ${this.usage}` });
    }
    const { resolveAgent, agentStatus, stopAgent } = await import("../../core/agent/mod.ts");
    const { useHarness } = await import("../../core/agent/asking/mod.ts");
    const { startAgent } = await import("../../core/agent/launch/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const asking = {
      yes: flags.bool("yes"),
      ask: io.isTerminal ? (q: string) => io.ask(q) : undefined,
      note: (t: string) => io.note(t),
    };
    const running = (await agentStatus(ctx, agent)).state !== "stopped";
    const switched = await useHarness(ctx, agent, target, {
      ...asking,
      acpCommand: flags.string("acp-command"),
    });
    for (const kind of switched.silent) {
      io.note(`Connection ${kind} stops answering on harness "${target}"; it stays in the settings`);
    }
    if (running) {
      await stopAgent(ctx, agent);
      await startAgent(ctx, await resolveAgent(ctx, agent.name), { asking });
    }
    io.print(
      flags.bool("json")
        ? { ...switched, restarted: running }
        : `Agent "${agent.name}" now runs harness "${target}" (was "${switched.from}")${
          running ? "; restarted" : ""
        }`,
    );
  },
};
