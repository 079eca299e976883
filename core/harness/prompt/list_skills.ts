import { joinPath } from "../../base/mod.ts";

/** A skill as the prompt lists it. */
export interface SkillEntry {
  /** Its folder's name in Agent/skills/. */
  readonly name: string;
  /** The first line that says what it does: SKILL.md's `description:`, else its first line of text. */
  readonly description: string;
}

/** The files that describe a skill, in the order looked for: a skill's folder holds one. */
export const DESCRIBED_BY = ["SKILL.md", "README.md"] as const;
const MAX_DESCRIPTION = 200;

/**
 * The skills in Agent/skills/, by name in code-point order, each with the first line of its
 * description, so the same folders give the same list (PRN-2). Links are never followed (LAY-9):
 * a skill folder or description file that is a link is left out.
 */
export async function listSkills(skillsDir: string): Promise<SkillEntry[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(skillsDir)) {
      if (entry.isDirectory && !entry.isSymlink && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) return [];
    throw err;
  }
  names.sort(byCodePoint);
  const skills: SkillEntry[] = [];
  for (const name of names) skills.push({ name, description: await describe(joinPath(skillsDir, name)) });
  return skills;
}

async function describe(folder: string): Promise<string> {
  for (const file of DESCRIBED_BY) {
    const text = await readRegular(joinPath(folder, file));
    if (text !== undefined) return firstDescriptionLine(text);
  }
  return "";
}

/** SKILL.md's front matter `description:`, or the first line of text that is not a heading. */
export function firstDescriptionLine(text: string): string {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let body = lines;
  if (lines[0]?.trim() === "---") {
    const end = lines.indexOf("---", 1);
    const front = end > 0 ? lines.slice(1, end) : [];
    const at = front.findIndex((l) => /^description\s*:/.test(l));
    if (at >= 0) {
      const value = front[at]!.replace(/^description\s*:\s*/, "").trim();
      const line = /^[|>][+-]?$/.test(value) ? (front[at + 1] ?? "").trim() : unquote(value);
      if (line !== "") return clip(line);
    }
    body = end > 0 ? lines.slice(end + 1) : lines;
  }
  const text1 = body.map((l) => l.trim()).filter((l) => l !== "");
  const line = text1.find((l) => !l.startsWith("#")) ?? text1[0]?.replace(/^#+\s*/, "") ?? "";
  return clip(line);
}

function unquote(value: string): string {
  const m = /^(["'])(.*)\1$/.exec(value);
  return m ? m[2]! : value;
}

function clip(line: string): string {
  const chars = [...line];
  return chars.length > MAX_DESCRIPTION ? `${chars.slice(0, MAX_DESCRIPTION - 1).join("")}\u2026` : line;
}

async function readRegular(path: string): Promise<string | undefined> {
  try {
    if (!(await Deno.lstat(path)).isFile) return undefined;
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** Orders names by code point, the same everywhere whatever the locale. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
