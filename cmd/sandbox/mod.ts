import type { Group } from "../command.ts";
import { run } from "./run.ts";

/** `lnk sandbox ...`: run programs under a sandbox spec (the relays inside one are a role: main.ts). */
export const sandbox: Group = {
  summary: "Run a program in a sandbox under a sandbox spec and grant flags",
  commands: { run },
};
