import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

export const kit: Command = {
  summary: "Check the running agent's harness against the adapter contract (the conformance kit)",
  usage: "lnk agent harness kit [--agent <name>] [--json]",
  examples: ["lnk agent harness kit", "lnk agent harness kit --agent q --json"],
  details: "Asks the agent's adapter its contract, needs and health, and checks its running endpoint: it\n" +
    "proves the agent's key, refuses a wrong proof, a squatter's key and a request naming another\n" +
    "agent, answers a message with its answer streamed, and accepts tools narrowing when it says so.\n" +
    "It prints a row per check and exits 1 if any fails; --json prints the rows. See docs/adapters.md.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const { agentKit } = await import("../../../core/agent/launch/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const rows = await agentKit(ctx, agent);
    const failed = rows.some((r) => r.result === "fail");
    if (flags.bool("json")) io.print({ agent: agent.name, harness: agent.harness, ok: !failed, rows });
    else {
      const width = Math.max(...rows.map((r) => r.check.length));
      io.print([
        `Conformance kit: agent "${agent.name}" on harness ${agent.harness}`,
        ...rows.map((r) => `  ${r.result.padEnd(7)} ${r.check.padEnd(width)}  ${r.detail}`),
        failed ? "Some checks failed." : "Every check holds.",
      ].join("\n"));
    }
    return failed ? 1 : 0;
  },
};
