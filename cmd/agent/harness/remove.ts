import { LinkError } from "../../../core/base/mod.ts";
import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

/** What both commands print. */
export function removedText(r: {
  agent: string;
  harness: string;
  home?: string;
  layer?: string;
  others: readonly string[];
}): string {
  const lines = [
    r.home
      ? `Removed agent "${r.agent}"'s home of harness "${r.harness}" (${r.home})`
      : `Agent "${r.agent}" had no home of harness "${r.harness}"`,
  ];
  if (r.layer) lines.push(`Removed ${r.layer}: no other agent here runs "${r.harness}"`);
  else if (r.others.length) lines.push(`Its grants stay for ${r.others.map((n) => `"${n}"`).join(", ")}`);
  return lines.join("\n");
}

export const remove: Command = {
  summary: "End a harness for the agent: remove its home of it, keep the answers here",
  usage: "lnk agent harness remove <harness> [--agent <name>] [--json]",
  examples: ["lnk agent harness remove acp", "lnk agent harness remove demo --agent work"],
  details: "Removes the agent's home of the harness (~/.lnk/agents/<id>/harnesses/<h>), what the harness\n" +
    "kept for it (CLI-6). The answers to its needs, ~/.lnk/harnesses/<h>.toml, stay on this machine, so\n" +
    "a later `lnk agent use <h>` asks nothing it asked before; `lnk agent harness delete --harness <h>`\n" +
    "takes them too with the last agent on it. The harness the agent runs now is refused while it runs.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const target = flags.positionals[0];
    if (!target) {
      throw new LinkError("USAGE", "Cannot remove: no harness was named", { hint: `Usage: ${this.usage}` });
    }
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const { removeHarnessOf } = await import("../../../core/agent/asking/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const removed = await removeHarnessOf(ctx, agent, target, { layer: false });
    io.print(flags.bool("json") ? removed : removedText(removed));
  },
};
