import { LinkError } from "../../core/base/mod.ts";
import type { Command, Group, Io } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

async function agentOf(io: Io, name: string | undefined) {
  const [{ resolveAgent }, ctx] = await Promise.all([import("../../core/agent/mod.ts"), contextOf(io)]);
  return { ctx, agent: await resolveAgent(ctx, name) };
}

function turn(on: boolean): Command {
  const word = on ? "on" : "off";
  return {
    summary: on
      ? "Turn the agent's memory on: an index of its notes and conversations it searches"
      : "Turn the agent's memory off; its notes and index are kept",
    usage: `lnk agent memory ${word} [--agent <name>] [--json]`,
    examples: [`lnk agent memory ${word}`, `lnk agent memory ${word} --agent work`],
    details: "Sets [memory] on in the agent's Config/spec.toml, keeping every other line and comment.\n" +
      "It takes effect at the agent's next start (`lnk agent stop`, then `lnk agent start`).",
    async run(argv, io) {
      const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
      const { ctx, agent } = await agentOf(io, flags.string("agent"));
      const { changeMemory } = await import("../../core/memory/agent/mod.ts");
      const changed = await changeMemory(ctx, agent, on);
      if (flags.bool("json")) io.print(changed);
      else if (!changed.changed) io.print(`Memory of agent "${agent.name}" was already ${word}`);
      else io.print(`Memory of agent "${agent.name}" is ${word} from its next start`);
    },
  };
}

const status: Command = {
  summary: "Say whether the agent's memory is on, what its index holds, and whether its service runs",
  usage: "lnk agent memory status [--agent <name>] [--json]",
  examples: ["lnk agent memory status", "lnk agent memory status --json"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { memoryStatus } = await import("../../core/memory/agent/mod.ts");
    const s = await memoryStatus(ctx, agent);
    if (flags.bool("json")) return io.print(s);
    io.print(`Memory of agent "${s.agent}": ${s.on ? "on" : "off"}`);
    if (!s.on) return io.print(`  Turn it on with \`lnk agent memory on --agent ${s.agent}\``);
    io.print(`  embeddings: ${s.embeddings ?? "none (search by words alone)"}`);
    if (s.index) io.print(`  index: ${s.index.chunks} pieces, ${s.index.embedded} with a vector`);
    if (s.index?.meaningOff) io.print(`  meaning: off, by words alone (${s.index.meaningOff})`);
    io.print(
      `  service: ${s.service.serving ? "serving it" : s.service.running ? "running" : "not running"}`,
    );
  },
};

const search: Command = {
  summary: "Search the agent's notes and conversations by words and by meaning",
  usage: 'lnk agent memory search "<query>" [--limit <n>] [--agent <name>] [--json]',
  examples: ['lnk agent memory search "where does Bo live"', "lnk agent memory search invoice --json"],
  details: "Each result says where it came from: a note and its line, or a conversation and its event.\n" +
    "While the agent is awake its memory service searches by meaning too; asleep, by words alone.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "limit"], boolean: ["json"], positionals: 10_000 },
      this.usage,
    );
    const query = flags.positionals.join(" ");
    const limitText = flags.string("limit");
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new LinkError(
        "USAGE",
        `Cannot search memory: --limit "${limitText}" is not a whole number above 0`,
        {
          hint: 'Give a number, such as `lnk agent memory search "Bo" --limit 5`',
        },
      );
    }
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const [{ originText }, { searchAgentMemory }] = await Promise.all([
      import("../../core/memory/mod.ts"),
      import("../../core/memory/agent/mod.ts"),
    ]);
    const found = await searchAgentMemory(ctx, agent, query, { limit });
    if (flags.bool("json")) return io.print({ agent: agent.name, ...found });
    if (found.note) io.note(found.note);
    if (found.hits.length === 0) io.print(`Nothing in the memory of agent "${agent.name}" matches`);
    for (const hit of found.hits) {
      io.print(`${originText(hit.origin)} (by ${hit.by.join(" and ")})\n  ${hit.text}`);
    }
  },
};

/** `lnk agent memory ...`: the agent's memory, turned on and off, searched and looked at by its owner. */
export const memory: Group = {
  summary: "Turn the agent's memory on or off, search it, and see its state",
  commands: { on: turn(true), off: turn(false), status, search },
};
