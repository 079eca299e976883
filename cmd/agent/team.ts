import { LinkError } from "../../core/base/mod.ts";
import type { Command, Group } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { table } from "../table.ts";

const create: Command = {
  summary: "Make a team: its file in ~/.lnk/teams and the folder its members share",
  usage: "lnk agent team create <team> [--folder <path>] [--json]",
  examples: ["lnk agent team create research", "lnk agent team create lab --folder /srv/lab"],
  details: "The shared folder is ~/Link/Teams/<team> unless --folder names another; it is made yours\n" +
    "alone (0700). Every sandbox hides it but for what each member is granted.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["folder"], boolean: ["json"], positionals: 1 }, this.usage);
    const name = teamArg(flags.positionals, "create", this.usage);
    const { createTeamFor } = await import("../../core/agent/membership/mod.ts");
    const team = await createTeamFor(await contextOf(io), name, { folder: flags.string("folder") });
    io.print(
      flags.bool("json")
        ? teamJson(team)
        : `Made team "${team.name}", sharing ${team.folder}: add members with \`lnk agent team add ${team.name} <agent> --purpose "..."\``,
    );
  },
};

const add: Command = {
  summary: "Put an agent on a team, or change its name, purpose or folders there",
  usage:
    'lnk agent team add <team> <agent> [--name <n>] --purpose "<p>" [--read <sub>]... [--write <sub>]... [--json]',
  examples: [
    'lnk agent team add research main --purpose "Plans the work and asks the others"',
    'lnk agent team add research scout --name finder --purpose "Finds sources" --write notes --read drafts',
  ],
  details:
    "Grants the agent the whole team folder unless --read or --write name folders in it, written as\n" +
    "[teams.<team>] in its Config/sandbox.toml, every other line of that file kept. --name is its name in\n" +
    "the team (the agent's own unless given). All of a team's members are one owner's. Running members\n" +
    "are restarted so each starts with the team as it is now; stopped ones stay stopped.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["name", "purpose"], multiple: ["read", "write"], boolean: ["json"], positionals: 2 },
      this.usage,
    );
    const [name, agentName] = flags.positionals;
    if (name === undefined || agentName === undefined) {
      throw new LinkError("USAGE", "Cannot add to a team: name the team and the agent", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const purpose = flags.string("purpose");
    if (purpose === undefined || purpose.trim() === "") {
      throw new LinkError(
        "USAGE",
        `Cannot add agent "${agentName}" to team "${name}": say its --purpose there`,
        {
          hint: `Usage: ${this.usage}`,
        },
      );
    }
    const read = flags.list("read");
    const write = flags.list("write");
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { addToTeam } = await import("../../core/agent/membership/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, agentName);
    const changed = await addToTeam(ctx, name, agent, {
      name: flags.string("name") ?? agent.name,
      purpose,
      grant: read.length || write.length ? { read, write } : undefined,
    });
    if (flags.bool("json")) {
      io.print({ ...teamJson(changed.team), sandbox: changed.file, restarted: changed.restarted });
      return;
    }
    const grant = read.length || write.length
      ? [write.length ? `writes ${write.join(", ")}` : "", read.length ? `reads ${read.join(", ")}` : ""]
        .filter(Boolean).join(" and ")
      : "has the whole folder";
    io.print(`Agent "${agent.name}" is on team "${changed.team.name}" and ${grant}${restartedText(changed)}`);
  },
};

const remove: Command = {
  summary: "Take an agent off a team, and its grant of the team's folder",
  usage: "lnk agent team remove <team> <agent> [--json]",
  examples: ["lnk agent team remove research scout"],
  details: "Its teammates refuse its next message at once. Running members are restarted.",
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["json"], positionals: 2 }, this.usage);
    const [name, agentName] = flags.positionals;
    if (name === undefined || agentName === undefined) {
      throw new LinkError("USAGE", "Cannot remove from a team: name the team and the agent", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { removeFromTeam } = await import("../../core/agent/membership/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, agentName);
    const changed = await removeFromTeam(ctx, name, agent);
    if (flags.bool("json")) {
      io.print({ ...teamJson(changed.team), sandbox: changed.file, restarted: changed.restarted });
    } else io.print(`Agent "${agent.name}" is off team "${changed.team.name}"${restartedText(changed)}`);
  },
};

const list: Command = {
  summary: "List the teams",
  usage: "lnk agent team list [--json]",
  examples: ["lnk agent team list", "lnk agent team list --json"],
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["json"] }, this.usage);
    const { readTeams } = await import("../../core/teams/mod.ts");
    const teams = await readTeams((await contextOf(io)).paths);
    if (flags.bool("json")) io.print({ teams: teams.map(teamJson) });
    else if (teams.length === 0) io.print("No teams yet. Make one with `lnk agent team create <team>`");
    else {
      io.print(table(
        ["TEAM", "MEMBERS", "FOLDER"],
        teams.map((t) => [t.name, t.member.map((m) => m.name).join(", ") || "-", t.folder]),
      ));
    }
  },
};

const show: Command = {
  summary: "Show a team: its owner, folder, members and their purposes, and its shared spec",
  usage: "lnk agent team show <team> [--json]",
  examples: ["lnk agent team show research", "lnk agent team show research --json"],
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["json"], positionals: 1 }, this.usage);
    const name = teamArg(flags.positionals, "show", this.usage);
    const { readTeam, checkTeamName } = await import("../../core/teams/mod.ts");
    checkTeamName(name);
    const team = await readTeam((await contextOf(io)).paths, name);
    if (!team) {
      throw new LinkError("CONFIG_INVALID", `Cannot find team "${name}"`, {
        hint: `Run \`lnk agent team list\` to see the teams, or \`lnk agent team create ${name}\``,
      });
    }
    if (flags.bool("json")) return io.print(teamJson(team));
    const lines = [
      `Team "${team.name}"`,
      `  owner:  ${team.owner}`,
      `  folder: ${team.folder}`,
      `  file:   ${team.path}`,
    ];
    lines.push(team.member.length ? "  members:" : "  members: none yet");
    for (const m of team.member) lines.push(`    ${m.name} (${m.id}): ${m.purpose}`);
    if (team.spec) lines.push(`  spec: ${JSON.stringify(team.spec)}`);
    io.print(lines.join("\n"));
  },
};

/** `lnk agent team ...`: the only writer of team files (TEAM-2). */
export const team: Group = {
  summary: "Make teams of your agents: a shared folder, shared opinions, and messages between them",
  commands: { create, add, remove, list, show },
};

function teamArg(positionals: string[], verb: string, usage: string): string {
  const name = positionals[0];
  if (name !== undefined) return name;
  throw new LinkError("USAGE", `Cannot ${verb} a team: name it`, { hint: `Usage: ${usage}` });
}

function teamJson(
  team: { name: string; path: string; owner: string; folder: string; member: unknown[]; spec?: unknown },
): Record<string, unknown> {
  return {
    team: team.name,
    file: team.path,
    owner: team.owner,
    folder: team.folder,
    members: team.member,
    spec: team.spec ?? null,
  };
}

function restartedText(changed: { restarted: readonly string[] }): string {
  return changed.restarted.length ? `; restarted ${changed.restarted.map((n) => `"${n}"`).join(", ")}` : "";
}
