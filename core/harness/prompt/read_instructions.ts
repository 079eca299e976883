import { joinPath } from "../../base/mod.ts";
import { byCodePoint } from "./list_skills.ts";

/** One instructions file as read at the start. */
export interface InstructionsFile {
  readonly name: string;
  readonly text: string;
}

/**
 * The `*.md` files of Agent/instructions/, sorted by name in code-point order, each read as
 * it is (LAY-4): the same files give the same list. Links are never followed (LAY-9).
 */
export async function readInstructions(dir: string): Promise<InstructionsFile[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".md") && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) return [];
    throw err;
  }
  names.sort(byCodePoint);
  const files: InstructionsFile[] = [];
  for (const name of names) files.push({ name, text: await Deno.readTextFile(joinPath(dir, name)) });
  return files;
}
