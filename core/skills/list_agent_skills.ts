import type { LinkPaths } from "../base/mod.ts";
import { type AgentSettings, layoutOf } from "../agent/mod.ts";
import { closeFd, fdPath, openEntry, statFd } from "../../sandbox/mod.ts";
import { byCodePoint } from "../harness/prompt/mod.ts";
import { describeSkill } from "./describe_skill.ts";
import { openSkillsFolder } from "./skills_folder.ts";

/** A skill in Agent/skills/ as the harness lists it. */
export interface InstalledSkill {
  readonly name: string;
  /** Its SKILL.md's description ("" when it has none). */
  readonly description: string;
}

/** An entry of Agent/skills/ that is no skill: a link, a file, or something else. */
export interface NotASkill {
  readonly name: string;
  readonly kind: "link" | "file" | "other";
}

/** What Agent/skills/ holds. */
export interface AgentSkills {
  readonly agent: string;
  readonly skills: readonly InstalledSkill[];
  readonly others: readonly NotASkill[];
}

/**
 * The agent's skills, read as hostile (the harness writes Agent/skills/): the folder is opened
 * without following a link, each entry looked at through its descriptor, a link never followed
 * and only the head of a description read (SKL-3). Dot-names (a copy being put in place) are
 * left out, as the harness's lister leaves them. The caller prints names with printable().
 */
export function listAgentSkills(paths: LinkPaths, agent: AgentSettings): AgentSkills {
  using folder = openSkillsFolder(layoutOf(paths, agent), { make: false });
  if (folder === undefined) return { agent: agent.name, skills: [], others: [] };
  const skills: InstalledSkill[] = [];
  const others: NotASkill[] = [];
  const names = [...Deno.readDirSync(fdPath(folder.fd))].map((e) => e.name).filter((n) => !n.startsWith("."));
  for (const name of names.sort(byCodePoint)) {
    const fd = openEntry(folder.fd, name);
    if (fd === undefined) continue;
    try {
      const { type } = statFd(fd);
      if (type === "dir") skills.push({ name, description: describeSkill(fd) ?? "" });
      else others.push({ name, kind: type === "symlink" ? "link" : type });
    } finally {
      closeFd(fd);
    }
  }
  return { agent: agent.name, skills, others };
}
