import { LinkError, LinkPaths } from "../../core/base/mod.ts";
// Its own file, not sandbox/mod.ts: the help names the flags, and would load every sandbox schema.
import { GRANT_FLAGS, GRANT_USAGE, grantFlagsFrom } from "../../sandbox/grant_flags.ts";
import type { Command } from "../command.ts";
import { parseFlags } from "../flags.ts";

export const run: Command = {
  summary: "Run a program in a sandbox, under a sandbox spec and grant flags",
  usage: `lnk sandbox run [--spec <file>] ${GRANT_USAGE} -- <command> [<arg>...]`,
  examples: [
    "lnk sandbox run -- /bin/sh -c 'id; ls ~'",
    "lnk sandbox run --spec ~/Link/Agents/main/Config/sandbox.toml -- curl https://example.com",
    "lnk sandbox run --host example.com --read ~/src -- ls ~/src",
  ],
  details: "The spec is a sandbox file (an agent's Config/sandbox.toml, say); the grant flags add to it,\n" +
    "as `lnk agent allow` takes them. The program gets a home and /tmp of its own, no network but\n" +
    "its proxy (HTTP_PROXY and the rest) when the spec allows the internet, and exits with its code.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["spec", ...GRANT_FLAGS.string], multiple: [...GRANT_FLAGS.multiple] },
      this.usage,
    );
    if (flags.rest.length === 0) {
      throw new LinkError("USAGE", "Cannot run in a sandbox: no command was given after --", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { expandHome, runWithInput, sandboxRun } = await import("../../sandbox/mod.ts");
    const spec = flags.string("spec");
    const env: Record<string, string> = {};
    for (const name of ["TERM", "LANG"]) {
      const value = io.env.get(name);
      if (value) env[name] = value;
    }
    return await sandboxRun({
      paths: new LinkPaths(io.home),
      specPath: spec === undefined ? undefined : expandHome(spec, io.home),
      grants: grantFlagsFrom(flags.values),
      command: flags.rest,
      env,
      signal: io.signal,
      consent: io.isTerminal
        ? { ask: (q) => io.ask(q), note: (t) => io.note(t), run: runWithInput }
        : undefined,
      notes: (text) => io.note(text),
    });
  },
};
