import { LinkError } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { statusText } from "./status_text.ts";

export const start: Command = {
  summary: "Start an agent: its bridge and its harness, in its sandbox",
  usage: "lnk agent start [--agent <name>] [--sandbox | --no-sandbox] [--foreground] [--yes] [--json]",
  examples: [
    "lnk agent start",
    "lnk agent start --agent work",
    "lnk agent start --foreground",
    "lnk agent start --no-sandbox",
  ],
  details: "--no-sandbox turns the agent's sandbox off and it stays off until --sandbox (GRT-6); it is\n" +
    "the only way off: --yes never turns it off. `unsandboxed = false` in ~/.lnk/machine.toml refuses it.\n" +
    "--foreground runs the agent in this terminal, its logs on stderr, until Ctrl-C.\n" +
    "A start while another start or stop of the agent is at work is refused (AGENT_BUSY); one that\n" +
    "finds the agent running says so and changes nothing.\n" +
    "An outside harness's needs and risks not yet answered are asked here first, kept in\n" +
    "~/.lnk/harnesses/<h>.toml; without a terminal the start is refused unless --yes, which grants\n" +
    "the declared needs and required risks and leaves optional risks off.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent"], boolean: ["json", "sandbox", "no-sandbox", "yes", "foreground"] },
      this.usage,
    );
    if (flags.bool("sandbox") && flags.bool("no-sandbox")) {
      throw new LinkError("USAGE", "Cannot start with both --sandbox and --no-sandbox", { hint: "Pick one" });
    }
    const sandbox = flags.bool("no-sandbox") ? false : flags.bool("sandbox") ? true : undefined;
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { startAgent } = await import("../../core/agent/launch/mod.ts");
    const { runWithInput } = await import("../../sandbox/mod.ts");
    const ctx = await contextOf(io);
    const foreground = flags.bool("foreground") ? io.signal : undefined;
    const status = await startAgent(ctx, await resolveAgent(ctx, flags.string("agent")), {
      sandbox,
      foreground,
      // A person at a terminal is offered AppArmor's profile for bubblewrap alone (SBX-3).
      consent: io.isTerminal
        ? { ask: (q) => io.ask(q), note: (t) => io.note(t), run: runWithInput }
        : undefined,
      // An outside harness's new needs: asked here, or granted by --yes (GRT-18, GRT-19, GRT-22).
      asking: {
        yes: flags.bool("yes"),
        ask: io.isTerminal ? (q) => io.ask(q) : undefined,
        note: (t) => io.note(t),
      },
    });
    if (flags.bool("json")) io.print(status);
    else if (foreground) io.print(`Stopped "${status.name}"`);
    else io.print(status.already ? statusText(status) : `Started "${status.name}"\n${statusText(status)}`);
  },
};
