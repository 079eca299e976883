import type { Group } from "../command.ts";

/** `lnk agent ...`: create, run and talk to agents. */
export const agent: Group = {
  summary: "Create, start, stop and talk to your agents",
  commands: {},
};
