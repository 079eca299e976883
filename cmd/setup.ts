import type { Command } from "./command.ts";
import { contextOf } from "./context.ts";
import { parseFlags } from "./flags.ts";
import { statusText } from "./agent/status_text.ts";

export const setup: Command = {
  summary: "Set this machine up for Link: install what it needs, then create and start main",
  usage: "lnk setup [--yes] [--json]",
  examples: ["lnk setup", "lnk setup --yes"],
  details: "Installs what Link runs and the PATH lacks (bubblewrap, and util-linux's setsid and setpriv)\n" +
    "with this system's package manager (apt-get, dnf, pacman, zypper or apk), through sudo unless run\n" +
    "as root. At a terminal it asks first; without one it installs only with --yes, else says the\n" +
    "command to run. Then it creates `main` when you have no agent yet, and starts it.",
  async run(argv, io) {
    const flags = parseFlags(argv, { boolean: ["yes", "json"], short: { y: "yes" } }, this.usage);
    const { setUp } = await import("../core/setup/mod.ts");
    const { runWithInput } = await import("../sandbox/mod.ts");
    const ctx = await contextOf(io);
    const done = await setUp(ctx, {
      ask: io.isTerminal ? (q) => io.ask(q) : undefined,
      yes: flags.bool("yes"),
      start: {
        // A person at a terminal is offered AppArmor's profile for bubblewrap alone (SBX-3).
        consent: io.isTerminal
          ? { ask: (q) => io.ask(q), note: (t) => io.note(t), run: runWithInput }
          : undefined,
      },
    });
    if (flags.bool("json")) return void io.print(done);
    const { agent } = done;
    io.print([
      ...(done.installed.length ? [`Installed ${done.installed.join(" and ")}`] : []),
      ...(done.created ? [`Created agent "${agent.name}" (${agent.id})`] : []),
      agent.already ? statusText(agent) : `Started "${agent.name}"\n${statusText(agent)}`,
      `Talk to it with \`lnk agent chat send "hello"\`${
        agent.name === "main" ? "" : ` --agent ${agent.name}`
      }`,
    ].join("\n"));
  },
};
