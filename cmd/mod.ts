/**
 * The command line: one file per command, mirroring `lnk ...`; each group lists its commands.
 * @module
 */
import type { Group } from "./command.ts";
import { agent } from "./agent/mod.ts";
import { sandbox } from "./sandbox/mod.ts";
import { setup } from "./setup.ts";

/** Every command of `lnk`. */
export const ROOT: Group = {
  summary: "Link runs your own AI agents on this machine, each in a sandbox",
  commands: { setup, agent, sandbox },
};
export { runCli } from "./run_cli.ts";
export type { Command, Group, Io } from "./command.ts";
export { terminalIo } from "./terminal_io.ts";
