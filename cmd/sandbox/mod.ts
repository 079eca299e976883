import type { Group } from "../command.ts";
import { relay } from "./relay.ts";
import { run } from "./run.ts";

/** `lnk sandbox ...`: run programs under a sandbox spec, and the relays inside a sandbox. */
export const sandbox: Group = {
  summary: "Run a program in a sandbox under a sandbox spec and grant flags",
  commands: { run, relay },
};
