import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const secret: Command = {
  summary: "Show or set whether the proxy adds the agent's model key (wire) or its harness holds it (hold)",
  usage: "lnk agent secret [wire | hold] [--agent <name>] [--json]",
  examples: ["lnk agent secret", "lnk agent secret wire", "lnk agent secret hold --agent work"],
  details:
    "wire: the harness holds a placeholder and the proxy, outside the sandbox, puts the key in each\n" +
    "request to the model's provider, over TLS; the key never enters the sandbox (SBX-16). hold: the harness\n" +
    "gets the key itself. The harnesses Link knows are wired unless set; a harness from outside Link\n" +
    "holds its key (SBX-17). A running agent takes the change at its next start.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const choice = flags.positionals[0];
    if (choice !== undefined && choice !== "wire" && choice !== "hold") {
      throw new LinkError("USAGE", `Cannot set the model key to "${choice}": it is wire or hold`, {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const grants = await import("../../core/agent/grants/mod.ts");
    const ctx = await contextOf(io);
    let agent = await resolveAgent(ctx, flags.string("agent"));
    if (choice) agent = await grants.setKeyWiring(ctx.paths, agent, choice === "wire");
    const wiring = await grants.modelWiring(agent, { env: ctx.env });
    const shown = {
      agent: agent.name,
      harness: agent.harness,
      wired: wiring.wired,
      by: wiring.by,
      provider: wiring.provider,
      keyVar: wiring.keyVar ?? null,
      keySet: wiring.keySet,
    };
    if (flags.bool("json")) {
      io.print(shown);
      return;
    }
    const how = wiring.wired
      ? "wired: the proxy adds it, the harness holds a placeholder"
      : "held: the harness gets the key itself";
    const why = wiring.by === "setting"
      ? "set with `lnk agent secret`"
      : `the default for harness ${agent.harness}`;
    const key = wiring.keyVar
      ? `${wiring.provider}, from ${wiring.keyVar} (${wiring.keySet ? "set" : "not set here"})`
      : `none needed (${wiring.provider} model)`;
    io.print(`Model key of "${agent.name}": ${how} (${why})\n  key: ${key}`);
  },
};
