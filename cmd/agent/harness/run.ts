import { LinkError } from "../../../core/base/mod.ts";
import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

export const run: Command = {
  summary: "Run a command as the agent's harness would: its sandbox, its grants, a proxy of its own",
  usage: "lnk agent harness run [--agent <name>] [--json] -- <command> [<arg>...]",
  examples: [
    "lnk agent harness run -- curl https://example.com",
    "lnk agent harness run --agent work -- /bin/sh",
  ],
  details: "It builds the policy the harness gets (the agent's grants and the harness's own) rather than\n" +
    "entering the running agent, so it works whether or not the agent runs, with a proxy and rules of its\n" +
    "own that leave the running agent's alone (SBX-6). The command has this terminal and exits with its\n" +
    "code. --json prints an error as JSON.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    if (flags.rest.length === 0) {
      throw new LinkError("USAGE", "Cannot run as the harness: no command was given after --", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const grants = await import("../../../core/agent/grants/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const env: Record<string, string> = {};
    for (const name of ["TERM", "LANG"]) {
      const value = io.env.get(name);
      if (value) env[name] = value;
    }
    return await grants.harnessRun(ctx, agent, { command: flags.rest, env, signal: io.signal });
  },
};
