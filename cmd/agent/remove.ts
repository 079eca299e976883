import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const remove: Command = {
  summary: "Remove an agent; its files are kept aside unless you say otherwise",
  usage: "lnk agent remove <name> [--yes] [--files keep|delete] [--json]",
  examples: ["lnk agent remove work", "lnk agent remove work --yes", "lnk agent remove old --files delete"],
  details: "Asks in a terminal. Without one, --yes removes the agent and keeps its files (CLI-7).\n" +
    "Kept files are put aside for keep_moved (30 days); `lnk agent restore <name>` brings the agent back.\n" +
    "A Home you picked with --files stays where it is. The agent is taken off its teams, and its running\n" +
    "teammates are started again; a restored agent is on no team.",
  async run(argv, io) {
    const flags = parseFlags(argv, {
      string: ["files"],
      boolean: ["yes", "json"],
      positionals: 1,
      short: { y: "yes" },
    }, this.usage);
    const name = flags.positionals[0];
    if (!name) {
      throw new LinkError("USAGE", "Cannot remove an agent without its name", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const files = flags.string("files") ?? "keep";
    if (files !== "keep" && files !== "delete") {
      throw new LinkError("USAGE", `Cannot read --files "${files}": it is "keep" or "delete"`, {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { findAgent, loadMachine, removeAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await findAgent(ctx, name);
    if (!agent) {
      throw new LinkError("AGENT_NOT_FOUND", `Cannot find agent "${name}"`, {
        hint: "Run `lnk agent list` to see your agents",
      });
    }
    const keep = (await loadMachine(ctx.paths)).keep_moved;
    if (!flags.bool("yes")) {
      const what = files === "delete" ? "and DELETE its files" : `(its files are kept aside for ${keep})`;
      const answer = await io.ask(`Remove agent "${agent.name}" ${what}? [y/N]`);
      if (answer === undefined) {
        throw new LinkError(
          "NOT_A_TERMINAL",
          `Cannot ask whether to remove agent "${agent.name}": there is no terminal`,
          {
            hint: "Add --yes to remove it and keep its files",
          },
        );
      }
      if (!/^y(es)?$/i.test(answer.trim())) {
        io.note("Kept the agent: nothing was removed");
        return;
      }
    }
    const removed = await removeAgent(ctx, agent, { files });
    // Off its teams once it is gone, so a teammate's next start names it nowhere (TEAM-9).
    const { takeOffTeams } = await import("../../core/agent/membership/mod.ts");
    const result = { ...removed, ...await takeOffTeams(ctx, agent) };
    if (flags.bool("json")) return io.print(result);
    io.print([
      `Removed agent "${result.name}" (${result.id})`,
      ...(result.teams.length > 0 ? [`  taken off team(s): ${result.teams.join(", ")}`] : []),
      ...(result.restarted.length > 0 ? [`  teammates started again: ${result.restarted.join(", ")}`] : []),
      ...(result.keptAt ? [`  its files are kept in ${result.keptAt} until ${result.keptUntil}`] : []),
      ...(result.homeLeft ? [`  its Home stays where it is: ${result.homeLeft}`] : []),
    ].join("\n"));
  },
};
