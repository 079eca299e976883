// Its own file, not sandbox/mod.ts: the help names the flags, and would load every sandbox schema.
import { GRANT_FLAGS, GRANT_USAGE, grantFlagsFrom } from "../../../sandbox/grant_flags.ts";
import { LinkError } from "../../../core/base/mod.ts";
import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

/** `lnk agent harness allow` or `deny`: the harness's grant layer, declared needs only (GRT-3, CLI-5). */
export function harnessAnswerCommand(mode: "allow" | "deny"): Command {
  return {
    summary: mode === "allow"
      ? "Grant a need the agent's harness declares: its layer (~/.lnk/harnesses/<h>.toml)"
      : "Refuse a need the agent's harness declares: its layer (~/.lnk/harnesses/<h>.toml)",
    usage:
      `lnk agent harness ${mode} [--agent <name>] [--harness <h>] ${GRANT_USAGE} [--risk <name>]... [--json]`,
    examples: mode === "allow"
      ? ["lnk agent harness allow --port 9000", "lnk agent harness allow --harness demo --risk open-port"]
      : ["lnk agent harness deny --read /opt/tool", "lnk agent harness deny --risk managed-browser"],
    details: "Changes the answer kept for a need of the agent's harness (or --harness <h>) in\n" +
      "~/.lnk/harnesses/<h>.toml, as a start's question would: only needs and risks its adapter\n" +
      "declares (a flag it never declared is refused). It holds for every agent here on that\n" +
      "harness from its next start; the agent's own grants are `lnk agent allow`'s.",
    async run(argv, io) {
      const flags = parseFlags(
        argv,
        {
          string: ["agent", "harness", ...GRANT_FLAGS.string],
          multiple: [...GRANT_FLAGS.multiple, "risk"],
          boolean: ["json"],
        },
        this.usage,
      );
      const given = grantFlagsFrom(flags.values);
      const risks = ((flags.values.risk ?? []) as unknown[]).map(String);
      if (Object.keys(given).length === 0 && risks.length === 0) {
        throw new LinkError("USAGE", `Cannot ${mode}: no need was named`, { hint: `Usage: ${this.usage}` });
      }
      const { resolveAgent } = await import("../../../core/agent/mod.ts");
      const { changeHarnessAnswers } = await import("../../../core/agent/asking/mod.ts");
      const ctx = await contextOf(io);
      const agent = await resolveAgent(ctx, flags.string("agent"));
      const harness = flags.string("harness") ?? agent.harness;
      const changed = await changeHarnessAnswers(ctx, agent, harness, mode, { flags: given, risks });
      io.print(
        flags.bool("json")
          ? changed
          : `${mode === "allow" ? "Allowed" : "Denied"} for harness "${harness}": ${
            changed.changed.join(" ")
          }\n` +
            `  in ${changed.path}; it holds from the next start`,
      );
    },
  };
}

export const allow: Command = harnessAnswerCommand("allow");
