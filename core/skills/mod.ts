/**
 * Skills from a URL (SKL-1..6): a git URL or a GitHub folder's page read purely, the repository
 * cloned with the person's own git into Link's own folder, the skill copied into the agent's
 * Agent/skills/<name>/ within limits and without following a link, put in place by one rename;
 * and the agent's skills listed and removed, read as the hostile folder the harness can write.
 * @module
 */
/** What a URL clones and which folder of it is the skill; a skill's name. */
export { SKILL_NAME, type SkillSource, skillSource } from "./skill_source.ts";
/** `lnk agent skill add`: clone, scan, copy and put in place. */
export { type AddedSkill, ADDING_PREFIX, addSkill, type AddSkillOptions } from "./add_skill.ts";
/** `lnk agent skill list`: the skills, and what else the folder holds. */
export {
  type AgentSkills,
  type InstalledSkill,
  listAgentSkills,
  type NotASkill,
} from "./list_agent_skills.ts";
/** `lnk agent skill remove`. */
export { removeSkill } from "./remove_skill.ts";
/** The limits of one skill, and what a scan leaves out. */
export { type LeftOut, SKILL_LIMITS } from "./scan_skill.ts";
/** A name or line an agent could have written, safe to print. */
export { printable } from "./printable.ts";
/** Whether the agent's harness reads Link's skills, and whether its memory is on. */
export { harnessReadsSkills, memoryOn } from "./agent_reads_skills.ts";
