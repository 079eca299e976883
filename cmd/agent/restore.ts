import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const restore: Command = {
  summary: "Bring back a removed agent whose files are still kept",
  usage: "lnk agent restore <name> [--json]",
  examples: ["lnk agent restore work"],
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["json"], positionals: 1 }, this.usage);
    const name = flags.positionals[0];
    if (!name) {
      throw new LinkError("USAGE", "Cannot restore an agent without its name", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { restoreAgent } = await import("../../core/agent/mod.ts");
    const agent = await restoreAgent(await contextOf(io), name);
    io.print(flags.bool("json") ? agent : `Restored agent "${agent.name}" (${agent.id})`);
  },
};
