import type { Group } from "../../command.ts";
import { allow } from "./allow.ts";
import { check } from "./check.ts";
import { del } from "./delete.ts";
import { deny } from "./deny.ts";
import { remove } from "./remove.ts";
import { reset } from "./reset.ts";
import { kit } from "./kit.ts";
import { probe } from "./probe.ts";
import { run } from "./run.ts";

/** `lnk agent harness ...`: the agent's harness, run and checked as it runs. */
export const harness: Group = {
  summary: "Run a command as the agent's harness would, check its sandbox and its adapter",
  commands: { run, check, kit, probe, allow, deny, reset, remove, delete: del },
};
