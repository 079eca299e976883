import type { Group } from "./command.ts";
import { agent } from "./agent/mod.ts";
import { sandbox } from "./sandbox/mod.ts";
import { setup } from "./setup.ts";
import { tunnel } from "./tunnel.ts";

/** Every command of `lnk`. */
export const ROOT: Group = {
  summary: "Link runs your own AI agents on this machine, each in a sandbox",
  commands: { setup, agent, sandbox, tunnel },
};
