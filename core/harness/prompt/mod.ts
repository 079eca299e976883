/**
 * Link Harness's system prompt: the agent's instructions, its skills and the folders its tools
 * see, read once at a start so every turn sends the same bytes (PRN-2, LAY-4, SKL-5).
 * @module
 */
/** Builds the prompt from the agent's folders, and its text from what was read. */
export { buildSystemPrompt, type SystemPromptInput, systemPromptText } from "./build_system_prompt.ts";
/** The skills in Agent/skills/, each with its first line of description. */
export {
  byCodePoint,
  DESCRIBED_BY,
  firstDescriptionLine,
  listSkills,
  type SkillEntry,
} from "./list_skills.ts";
/** Agent/instructions/*.md, sorted. */
export { type InstructionsFile, readInstructions } from "./read_instructions.ts";
/** The folder view, said for the prompt. */
export { describeFolders } from "./describe_folders.ts";
