import { LinkError } from "../../../core/base/mod.ts";
import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";

/** `lnk agent chat [send <text>]`: talk to an agent on the `link` connection (LOC-1..6). */
export const chat: Command = {
  summary: "Talk to an agent from this terminal, on the link connection",
  usage: "lnk agent chat [send <text>] [--agent <name>] [--thread <name>] [--json]",
  examples: [
    'lnk agent chat send "What is on my calendar today?"',
    "lnk agent chat send --thread work Summarise the notes in Home/meeting.md",
    "lnk agent chat",
  ],
  details:
    "`send` sends one message and prints the answer as it is written; with no `send`, each line you\n" +
    "type is sent and answered until an empty line or the end of input. Messages go to the agent's\n" +
    "endpoint as a connection's bridge sends them, on thread link:main unless --thread names another.\n" +
    "Ctrl-C stops only the wait: the agent finishes its answer, which comes with your next message.\n" +
    "`send --json` prints one object once the answer is whole: the agent, the thread, the answers kept\n" +
    "from before (earlier), the answer, and the outcome. A chat in which an answer failed exits 1.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "thread"], boolean: ["json"], positionals: 10_000 },
      this.usage,
    );
    const [verb, ...words] = flags.positionals;
    const [{ linkThread }, { chatCollected, chatOnce }, { chatTarget }] = await Promise.all([
      import("../../../connections/link/mod.ts"),
      import("./chat_once.ts"),
      import("./chat_target.ts"),
    ]);
    const thread = linkThread(flags.string("thread"));
    if (verb !== undefined && verb !== "send") {
      throw new LinkError("USAGE", `Cannot run "lnk agent chat ${verb}": unknown command`, {
        hint: `Send a message with \`lnk agent chat send ${verb} ...\`, or chat with \`lnk agent chat\``,
      });
    }
    const text = words.join(" ");
    if (verb === "send" && !text.trim()) {
      throw new LinkError("USAGE", "Cannot send an empty message", { hint: `Usage: ${this.usage}` });
    }
    if (verb !== "send" && flags.bool("json")) {
      throw new LinkError("USAGE", "Cannot chat with --json: it is for one message", {
        hint: 'Send one with `lnk agent chat send --json "<text>"`',
      });
    }
    const target = await chatTarget(await contextOf(io), flags.string("agent"));
    if (verb === "send") {
      if (!flags.bool("json")) return void await chatOnce(io, target, thread, text);
      io.print({ agent: target.name, thread, ...(await chatCollected(io, target, thread, text)) });
      return;
    }
    io.note(`Chatting with "${target.name}" on ${thread}. An empty line ends the chat.`);
    let failed = false;
    for (;;) {
      const line = await io.readLine();
      if (line === undefined || !line.trim()) return failed ? 1 : 0;
      try {
        if (!(await chatOnce(io, target, thread, line))) return failed ? 1 : 0;
      } catch (err) {
        // One failed answer does not end the chat: say it and take the next line; the exit says it.
        if (!(err instanceof LinkError) || !["PROVIDER_ERROR", "REFUSED"].includes(err.code)) throw err;
        io.note(`error: ${err.message}${err.hint ? `\n  hint: ${err.hint}` : ""}`);
        failed = true;
      }
    }
  },
};
