import { LinkError, type LinkPaths } from "../base/mod.ts";
import { type AgentSettings, layoutOf } from "../agent/mod.ts";
import { closeFd, fdPath, openEntry, renameNoReplace } from "../../sandbox/mod.ts";
import { printable } from "./printable.ts";
import { openSkillsFolder } from "./skills_folder.ts";

/** The prefix of a skill being removed: a dot-name, so no lister sees it half gone. */
const REMOVING_PREFIX = ".lnk-remove-";

/**
 * Removes Agent/skills/<name>: first renamed to a dot-name in the folder held open (so no lister
 * sees half a skill), then removed without following a link in it (a link is removed itself).
 * A name that is not one entry of the folder is refused, whatever it holds.
 */
export function removeSkill(
  paths: LinkPaths,
  agent: AgentSettings,
  name: string,
): { agent: string; removed: string } {
  if (name === "" || name.startsWith(".") || name.includes("/") || name.includes("\0")) {
    throw new LinkError("USAGE", `Cannot remove the skill "${printable(name)}": it is not a skill's name`, {
      hint: `Run \`lnk agent skill list --agent ${agent.name}\` to see the skills' names`,
    });
  }
  using folder = openSkillsFolder(layoutOf(paths, agent), { make: false });
  const fd = folder === undefined ? undefined : openEntry(folder.fd, name);
  if (folder === undefined || fd === undefined) {
    throw new LinkError(
      "INVALID",
      `Cannot remove skill "${printable(name)}": agent "${agent.name}" has no such skill`,
      {
        hint: `Run \`lnk agent skill list --agent ${agent.name}\` to see its skills`,
      },
    );
  }
  closeFd(fd);
  const gone = `${REMOVING_PREFIX}${crypto.randomUUID().slice(0, 8)}`;
  if (renameNoReplace(folder.fd, name, gone) === "exists") {
    throw new LinkError("CONFLICT", `Cannot remove skill "${printable(name)}": "${gone}" is in the way`, {
      hint: "Run the command again",
    });
  }
  Deno.removeSync(fdPath(folder.fd, gone), { recursive: true });
  return { agent: agent.name, removed: name };
}
