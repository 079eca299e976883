import type { AgentFolders } from "../tools/mod.ts";
import type { Access } from "../tools/mod.ts";
import { describeFolders } from "./describe_folders.ts";
import { listSkills, type SkillEntry } from "./list_skills.ts";
import { type InstructionsFile, readInstructions } from "./read_instructions.ts";

/** What the system prompt is built from at a start. */
export interface SystemPromptInput {
  readonly folders: AgentFolders;
  readonly agentName: string;
  /** [files] of the agent's grants, to say what each folder allows. */
  readonly files?: Readonly<Record<string, Access>>;
}

/**
 * The system prompt for a start: Agent/instructions/*.md (sorted, concatenated), the list of
 * skills (always, memory on or off, a narrowed subagent's too: SKL-5), and the folders the tools
 * see (LAY-5). Built once at a start from the files as they are then, so every turn sends the
 * same bytes and the provider's prompt cache holds (PRN-2); an edit shows at the next start (LAY-4).
 */
export async function buildSystemPrompt(input: SystemPromptInput): Promise<string> {
  const instructions = await readInstructions(input.folders.instructions);
  const skills = await listSkills(input.folders.skills);
  return systemPromptText({ agentName: input.agentName, instructions, skills, files: input.files });
}

/** The prompt's text from what was read: a pure function, so equal inputs give equal bytes. */
export function systemPromptText(parts: {
  agentName: string;
  instructions: readonly InstructionsFile[];
  skills: readonly SkillEntry[];
  files?: Readonly<Record<string, Access>>;
}): string {
  const sections = [
    `You are "${parts.agentName}", a personal agent running on your owner's machine through Link.`,
    `# Instructions\n\n${
      parts.instructions.length === 0
        ? "(No instructions yet: your owner writes them in instructions/.)"
        : parts.instructions.map((f) => f.text.trim()).filter((t) => t !== "").join("\n\n")
    }`,
    `# Skills\n\n${skillsText(parts.skills)}`,
    `# Your folders\n\n${describeFolders(parts.files)}`,
  ];
  return `${sections.join("\n\n")}\n`;
}

function skillsText(skills: readonly SkillEntry[]): string {
  if (skills.length === 0) return "No skills are installed.";
  const lines = skills.map((s) => (s.description === "" ? `- ${s.name}` : `- ${s.name}: ${s.description}`));
  return `Before using a skill, read its instructions with skill_read.\n${lines.join("\n")}`;
}
