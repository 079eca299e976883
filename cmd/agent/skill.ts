import { LinkError } from "../../core/base/mod.ts";
import type { Command, Group, Io } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

async function agentOf(io: Io, name: string | undefined) {
  const [{ resolveAgent }, ctx] = await Promise.all([import("../../core/agent/mod.ts"), contextOf(io)]);
  return { ctx, agent: await resolveAgent(ctx, name) };
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const add: Command = {
  summary: "Add a skill to the agent from a git URL, a GitHub folder's page or a path",
  usage: "lnk agent skill add <git url> [--name <name>] [--agent <name>] [--json]",
  examples: [
    "lnk agent skill add https://github.com/anthropics/skills/tree/main/skills/pdf",
    "lnk agent skill add https://example.org/me/skills.git --name notes",
    "lnk agent skill add ./my-skill --agent work",
  ],
  details:
    "Clones the repository with your git (--depth 1, no hooks, no submodules) into Link's own folder,\n" +
    "copies the skill (a folder with a SKILL.md) into the agent's Agent/skills/<name>/, then removes the\n" +
    "clone. Links and anything not a file or folder are left out; a skill holds at most 1,000 files,\n" +
    "64 MB and 1,000 folders at most 32 deep. It is named for its folder unless --name says, and the agent\n" +
    "lists it in its prompt from its next start or wake.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "name"], boolean: ["json"], positionals: 1 },
      this.usage,
    );
    const url = flags.positionals[0];
    if (url === undefined) {
      throw new LinkError("USAGE", "Cannot add a skill: give its git URL", { hint: `Usage: ${this.usage}` });
    }
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { addSkill, printable } = await import("../../core/skills/mod.ts");
    const added = await addSkill(ctx.paths, agent, {
      url,
      name: flags.string("name"),
      cwd: io.env.get("PWD"),
      env: io.env,
      signal: io.signal,
    });
    if (flags.bool("json")) {
      io.print(added);
      return;
    }
    const counts = `${added.files} file${added.files === 1 ? "" : "s"}, ${size(added.bytes)}`;
    io.print(
      `Added skill "${added.name}" to agent "${added.agent}" (${counts}): ${printable(added.description)}`,
    );
    for (const left of added.leftOut) {
      io.print(
        `  left out "${printable(left.path)}": ${left.kind === "link" ? "a link" : "not a file or folder"}`,
      );
    }
    if (!added.harnessReadsSkills) {
      io.note(
        `Agent "${added.agent}" runs the harness "${added.harness}", which does not read Link's skills: ` +
          `it will not read "${added.name}"`,
      );
    }
    if (!added.memory) {
      io.note(
        `Memory is off for agent "${added.agent}": the skill is listed in every prompt, and what the agent ` +
          `learns using it is not kept (turn memory on with \`lnk agent memory on --agent ${added.agent}\` to keep it)`,
      );
    }
  },
};

const list: Command = {
  summary: "List the agent's skills, each with what its SKILL.md says it does",
  usage: "lnk agent skill list [--agent <name>] [--json]",
  examples: ["lnk agent skill list", "lnk agent skill list --agent work --json"],
  details: "Anything else in Agent/skills/ (a link, a file) is named on stderr and never followed.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { listAgentSkills, printable } = await import("../../core/skills/mod.ts");
    const listed = listAgentSkills(ctx.paths, agent);
    if (flags.bool("json")) {
      io.print(listed);
      return;
    }
    if (listed.skills.length === 0) io.print(`Agent "${agent.name}" has no skill`);
    for (const skill of listed.skills) io.print(`${printable(skill.name)}  ${printable(skill.description)}`);
    for (const other of listed.others) {
      const kind = other.kind === "link"
        ? "a link"
        : other.kind === "file"
        ? "a file"
        : "neither file nor folder";
      io.note(`Not a skill: "${printable(other.name)}" (${kind})`);
    }
  },
};

const remove: Command = {
  summary: "Remove one of the agent's skills",
  usage: "lnk agent skill remove <name> [--agent <name>] [--json]",
  examples: ["lnk agent skill remove pdf"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot remove a skill: name it", {
        hint: "Run `lnk agent skill list` to see the names",
      });
    }
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { removeSkill, printable } = await import("../../core/skills/mod.ts");
    const removed = removeSkill(ctx.paths, agent, name);
    if (flags.bool("json")) io.print(removed);
    else io.print(`Removed skill "${printable(name)}" from agent "${agent.name}"`);
  },
};

/** `lnk agent skill ...`: the agent's skills, added from a URL, listed and removed by its owner. */
export const skill: Group = {
  summary: "Add skills to the agent from a git URL, list and remove them",
  commands: { add, list, remove },
};
