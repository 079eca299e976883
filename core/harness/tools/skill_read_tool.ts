import { isAbsolute, join, relative, sep } from "node:path";
import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";
import { READ_PAGE_BYTES } from "./read_file_tool.ts";

/** The files that describe a skill, in the order looked for. */
export const SKILL_FILES = ["SKILL.md", "README.md"] as const;

const Args = z.strictObject({
  name: z.string().regex(/^[^/\\\0.][^/\\\0]*$/, "must be a skill's folder name, as listed").max(200)
    .describe("The skill's name, as the list of skills in your instructions gives it"),
  file: z.string().min(1).optional()
    .describe('Another file of the skill that its SKILL.md names, such as "reference.md"'),
});

/**
 * skill_read: a skill's SKILL.md (or README.md) from Agent/skills/<name>/, or another file of
 * that skill. Skills are listed in the prompt (SKL-5); this is how the agent reads one before
 * using it. It reads the skill's own folder only: a link that leads out is refused.
 */
export function skillReadTool(): HarnessTool {
  return defineTool({
    name: "skill_read",
    description: "Read one of your skills' instructions (its SKILL.md) before using it, " +
      "or another file of that skill.",
    args: Args,
    async run({ name, file }, ctx) {
      const folder = join(ctx.folders.skills, name);
      const real = await Deno.realPath(folder).catch(() => undefined);
      const skillsReal = await Deno.realPath(ctx.folders.skills).catch(() => undefined);
      if (
        real === undefined || skillsReal === undefined || !inside(skillsReal, real) || real === skillsReal
      ) {
        throw new LinkError("REFUSED", `Cannot read skill "${name}": there is no such skill`, {
          hint: `Your skills: ${(await skillNames(ctx.folders.skills)).join(", ") || "none"}`,
        });
      }
      const wanted = file === undefined ? [...SKILL_FILES] : [file];
      for (const candidate of wanted) {
        if (isAbsolute(candidate) || candidate.split("/").includes("..")) {
          throw new LinkError(
            "REFUSED",
            `Cannot read "${candidate}" of skill "${name}": it leads out of the skill`,
          );
        }
        const path = await Deno.realPath(join(real, candidate)).catch(() => undefined);
        if (path === undefined) continue;
        if (!inside(real, path)) {
          throw new LinkError(
            "REFUSED",
            `Cannot read "${candidate}" of skill "${name}": it is a link out of the skill`,
          );
        }
        const bytes = await Deno.readFile(path);
        const text = new TextDecoder().decode(bytes.subarray(0, READ_PAGE_BYTES));
        return ok(bytes.length > READ_PAGE_BYTES ? `${text}\n\n[Cut at ${READ_PAGE_BYTES} bytes]` : text);
      }
      throw new LinkError(
        "REFUSED",
        `Cannot read skill "${name}": ${file ?? "SKILL.md"} does not exist in it`,
      );
    },
  });
}

async function skillNames(skills: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(skills)) {
      if (entry.isDirectory && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch {
    // No skills folder: no skills.
  }
  return names.sort();
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}
