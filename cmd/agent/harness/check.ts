import type { Command } from "../../command.ts";
import { contextOf } from "../../context.ts";
import { parseFlags } from "../../flags.ts";
import { describeCheck } from "../grants_text.ts";

export const check: Command = {
  summary: "Test from inside a sandbox like the harness's that each grant and each denial holds",
  usage: "lnk agent harness check [--agent <name>] [--json]",
  examples: ["lnk agent harness check", "lnk agent harness check --agent work --json"],
  details:
    "Starts a sandbox built as the harness's is, with a proxy of its own, and tries from inside: the\n" +
    "internet through the proxy; your home, ~/.lnk, ~/.config, Config/ and other agents' folders; Home\n" +
    "per [files]; each team folder it is granted (it must) and every other team's (it must not);\n" +
    "this machine's other ports, your network, the network as it is, display and browser\n" +
    "sockets; the model key; setuid bits and device nodes (refused); and how each of [limits] holds\n" +
    '(a cgroup, or rlimits). With `[network] mode = "host"` it lists the gaps that opens. It prints a\n' +
    "table and exits 1 if any check fails; --json prints the rows. The running agent is not touched.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { resolveAgent } = await import("../../../core/agent/mod.ts");
    const grants = await import("../../../core/agent/grants/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const result = await grants.harnessCheck(ctx, agent, { signal: io.signal });
    io.print(flags.bool("json") ? result.rows : describeCheck(result));
    return result.ok ? 0 : 1;
  },
};
