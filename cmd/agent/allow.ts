// Its own file, not sandbox/mod.ts: the help names the flags, and would load every sandbox schema.
import { GRANT_FLAGS, GRANT_USAGE, grantFlagsFrom } from "../../sandbox/grant_flags.ts";
import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { describeGrantChanges } from "./grants_text.ts";

/** `lnk agent allow` or `deny`: one command each, the same flags as `lnk sandbox run` (GRT-4). */
export function grantCommand(mode: "allow" | "deny"): Command {
  const verb = mode === "allow" ? "allow" : "deny";
  return {
    summary: mode === "allow"
      ? "Let an agent reach more: change its grants (Config/sandbox.toml)"
      : "Take back what an agent may reach: change its grants (Config/sandbox.toml)",
    usage: `lnk agent ${verb} [--agent <name>] ${GRANT_USAGE} [--json]`,
    examples: mode === "allow"
      ? [
        "lnk agent allow --tcp github.com:22",
        "lnk agent allow --read '~/src' --host api.github.com",
        "lnk agent allow --files work=write --port 5432",
        "lnk agent allow --network-mode host",
      ]
      : [
        'lnk agent deny --host "*"',
        "lnk agent deny --tcp github.com:22",
        "lnk agent deny --files instructions=read",
        "lnk agent deny --network-mode host",
      ],
    details:
      "The flags are those of `lnk sandbox run`, with the same meaning. Only the keys that change are\n" +
      "rewritten; every comment of the file is kept. The result is checked as the next start would check\n" +
      "it before it is written. A running agent keeps its old grants until it restarts.",
    async run(argv, io) {
      const flags = parseFlags(
        argv,
        { string: ["agent", ...GRANT_FLAGS.string], multiple: [...GRANT_FLAGS.multiple], boolean: ["json"] },
        this.usage,
      );
      const given = grantFlagsFrom(flags.values);
      if (Object.keys(given).length === 0) {
        throw new LinkError("USAGE", `Cannot ${verb}: no grant was named`, { hint: `Usage: ${this.usage}` });
      }
      const { resolveAgent } = await import("../../core/agent/mod.ts");
      const grants = await import("../../core/agent/grants/mod.ts");
      const ctx = await contextOf(io);
      const agent = await resolveAgent(ctx, flags.string("agent"));
      const changed = await grants.changeGrants(ctx, agent, given, mode);
      if (changed.restartNeeded) {
        io.note(
          `Agent "${agent.name}" is running with its old grants: restart it for this to hold ` +
            "(`lnk agent stop`, then `lnk agent start`)",
        );
      }
      io.print(flags.bool("json") ? changed : describeGrantChanges(changed));
    },
  };
}

export const allow: Command = grantCommand("allow");
