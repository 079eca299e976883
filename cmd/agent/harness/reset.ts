import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

export const reset: Command = {
  summary: "Forget the answers to the harness's needs: its next start asks again",
  usage: "lnk agent harness reset [--agent <name>] [--harness <h>] [--json]",
  examples: ["lnk agent harness reset", "lnk agent harness reset --harness demo"],
  details: "Forgets every answer kept in ~/.lnk/harnesses/<h>.toml for the agent's harness (or --harness\n" +
    "<h>), a deny too, and the grants they made (one written there by hand too); its comments stay. The next\n" +
    "start of an agent on it asks again (GRT-19).",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent", "harness"], boolean: ["json"] }, this.usage);
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const { resetHarnessAnswers } = await import("../../../core/agent/asking/mod.ts");
    const ctx = await contextOf(io);
    const harness = flags.string("harness") ?? (await resolveAgent(ctx, flags.string("agent"))).harness;
    const reset = await resetHarnessAnswers(ctx, harness);
    io.print(
      flags.bool("json")
        ? reset
        : reset.changed.length
        ? `Forgot ${reset.changed.length} answer(s) for harness "${harness}": its next start asks again`
        : `Harness "${harness}" has no answers to forget`,
    );
  },
};
