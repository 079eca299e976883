import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const share: Command = {
  summary: "Share a Telegram group, Slack channel or Discord channel with the agent, or admit one person",
  usage: "lnk agent share telegram|slack|discord [--person <id>] [--agent <name>] [--json]",
  examples: [
    "lnk agent share telegram",
    "lnk agent share slack --person U0123ABCD",
  ],
  details: "Stops the agent and prints a one-time code: mention the bot with it in the group or channel\n" +
    "within ten minutes, and that chat is shared: everyone in it but bots can talk to the agent there and use\n" +
    "all its tools, files and memory, each answered as who they are, never as you. A member's direct message\n" +
    "stays private. --person admits one person's direct messages by their ID, with no code. Only you, the\n" +
    "owner, can share. The chat is added to [access] message in the agent's Config/sandbox.toml, the rest of\n" +
    "the file kept as it was, and the agent starts again. `lnk agent unshare` takes it back.\n" +
    "With --json: one JSON object per line, the first with the code and when it expires, the last what was\n" +
    "shared.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "person"], boolean: ["json"], positionals: 1 },
      this.usage,
    );
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot share: name the connection, telegram, slack or discord", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const json = flags.bool("json");
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { shareConnection } = await import("../../core/connect/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const shared = await shareConnection(ctx, agent, name, {
      person: flags.string("person"),
      signal: io.signal,
      onCode({ code, expiresAt }) {
        if (json) io.print({ code, expires: new Date(expiresAt).toISOString() });
        else {
          io.print(
            `Mention the bot with this code in the group or channel to share, within ten minutes:\n\n` +
              `    ${code}\n\nOnly your own mention counts. Waiting...`,
          );
        }
      },
    });
    if (json) {
      io.print({ agent: agent.name, connection: name, shared: shared.principal, access: shared.message });
    } else io.print(`Shared ${shared.title} with agent "${agent.name}" (${shared.principal})`);
  },
};

export const unshare: Command = {
  summary: "Take back what was shared on a connection: its chats and people, or the one named",
  usage: "lnk agent unshare telegram|slack|discord [<chat or person>] [--agent <name>] [--json]",
  examples: ["lnk agent unshare telegram", "lnk agent unshare slack chat:slack:T0123:C0456"],
  details: "Takes out of [access] message every chat and person of the connection, or the one named (as\n" +
    "shared, or its ID), with the agent stopped, and starts it again: they are answered no more.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 2 }, this.usage);
    const [name, only] = flags.positionals;
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot unshare: name the connection, telegram, slack or discord", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { unshareConnection } = await import("../../core/connect/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const done = await unshareConnection(ctx, agent, name, only);
    if (flags.bool("json")) {
      io.print({ agent: agent.name, connection: name, removed: done.removed, access: done.message });
    } else if (done.removed.length === 0) {
      io.print(`Nothing was shared on ${name} with agent "${agent.name}"`);
    } else io.print(`Took back ${done.removed.join(", ")} from agent "${agent.name}"`);
  },
};
