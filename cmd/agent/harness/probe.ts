import type { Command } from "../../command.ts";
import { parseFlags } from "../../flags.ts";

export const probe: Command = {
  summary: "Run `lnk agent harness check`'s probes inside its sandbox (one line of JSON in, one out)",
  usage: "lnk agent harness probe [--json]",
  examples: ["lnk agent harness probe --json < probes.json"],
  hidden: true,
  async run(argv, io) {
    parseFlags(argv, { boolean: ["json"] }, this.usage);
    const grants = await import("../../../core/agent/grants/mod.ts");
    const probes = grants.ProbeList.parse(JSON.parse((await io.readLine()) ?? "[]"));
    io.print(await grants.runProbes(probes, { env: io.env.toObject() }));
  },
};
