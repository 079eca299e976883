import { parseArgs } from "node:util";
import { LinkError } from "../base/mod.ts";

/** Reads a role's `--agent <id>`, the one flag every agent role takes. */
export function roleAgentId(args: string[]): string {
  const { values } = parseArgs({ args, options: { agent: { type: "string" } }, strict: false });
  const id = values.agent;
  if (typeof id !== "string" || !id) {
    throw new LinkError("USAGE", "Cannot start the role: it needs --agent <id>", {
      hint: "Roles are started by `lnk agent start`",
    });
  }
  return id;
}
