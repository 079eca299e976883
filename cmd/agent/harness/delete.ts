import { LinkError } from "../../../core/base/mod.ts";
import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";
import { removedText } from "./remove.ts";

export const del: Command = {
  summary: "Delete a harness's home of the agent, and its grants with the last agent on it",
  usage: "lnk agent harness delete --harness <h> [--agent <name>] [--json]",
  examples: ["lnk agent harness delete --harness demo"],
  details: "Removes the agent's home of the harness, as `lnk agent harness remove` does, and also\n" +
    "~/.lnk/harnesses/<h>.toml, its grants and answers, once no other agent here runs it (GRT-12):\n" +
    "while another does, the file stays. The harness the agent runs now is refused while it runs.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent", "harness"], boolean: ["json"] }, this.usage);
    const target = flags.string("harness");
    if (!target) {
      throw new LinkError("USAGE", "Cannot delete: no harness was named", { hint: `Usage: ${this.usage}` });
    }
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const { removeHarnessOf } = await import("../../../core/agent/asking/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const removed = await removeHarnessOf(ctx, agent, target, { layer: true });
    io.print(flags.bool("json") ? removed : removedText(removed));
  },
};
