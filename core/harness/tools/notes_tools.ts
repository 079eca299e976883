import { join } from "node:path";
import { z } from "zod";
import { atomicWrite, LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";

/** The largest note. */
export const NOTE_MAX_CHARS = 256 * 1024;
const LIST_MAX = 500;

const NoteName = z.string().regex(
  /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/,
  "must be a short name of letters, digits, - _ and .",
)
  .transform((name) => name.replace(/\.md$/i, ""))
  .refine((name) => name !== "" && !name.includes(".."), 'must not be empty or hold ".."')
  .describe('The note\'s name, such as "people" or "project-plan"');

/**
 * The agent's notes (PRN-3): markdown files in Agent/memory/, which the agent writes and reads
 * back in later conversations. Memory is never in the files view; these tools are its one way in.
 */
export function notesTools(): HarnessTool[] {
  return [noteWrite(), noteRead(), noteList()];
}

function noteWrite(): HarnessTool {
  return defineTool({
    name: "note_write",
    description: "Write one of your notes: markdown you keep across conversations. " +
      'mode "replace" (the default) writes the whole note; "append" adds to its end.',
    args: z.strictObject({
      name: NoteName,
      text: z.string().max(NOTE_MAX_CHARS).describe("The note's markdown"),
      mode: z.enum(["replace", "append"]).optional(),
    }),
    async run({ name, text, mode }, ctx) {
      const path = await notePath(ctx.folders.memory, name);
      const before = mode === "append" ? await readNote(path) ?? "" : "";
      const joined = before === "" || before.endsWith("\n") ? before + text : `${before}\n${text}`;
      if (joined.length > NOTE_MAX_CHARS) {
        throw new LinkError(
          "REFUSED",
          `Cannot write note "${name}": it would be over ${NOTE_MAX_CHARS} characters`,
          {
            hint: "Shorten it, or split it into notes of their own",
          },
        );
      }
      await atomicWrite(path, joined);
      return ok(`${mode === "append" ? "Added to" : "Wrote"} note "${name}" (${joined.length} characters)`);
    },
  });
}

function noteRead(): HarnessTool {
  return defineTool({
    name: "note_read",
    description: "Read one of your notes by name.",
    args: z.strictObject({ name: NoteName }),
    async run({ name }, ctx) {
      const text = await readNote(await notePath(ctx.folders.memory, name));
      if (text === undefined) {
        throw new LinkError("REFUSED", `Cannot read note "${name}": there is no such note`, {
          hint: "Call note_list to see your notes",
        });
      }
      return ok(text);
    },
  });
}

function noteList(): HarnessTool {
  return defineTool({
    name: "note_list",
    description: "List your notes: each name with its size and first line.",
    args: z.strictObject({}),
    async run(_args, ctx) {
      const lines: string[] = [];
      for (const entry of await noteEntries(ctx.folders.memory)) {
        const text = await Deno.readTextFile(join(ctx.folders.memory, entry));
        const first = text.split("\n").find((l) => l.trim() !== "")?.trim().slice(0, 120) ?? "";
        lines.push(`${entry.slice(0, -3)} (${text.length} characters)${first ? `: ${first}` : ""}`);
      }
      if (lines.length > LIST_MAX) lines.splice(LIST_MAX, lines.length, `(and more not shown)`);
      return ok(lines.length === 0 ? "(no notes yet)" : lines.join("\n"));
    },
  });
}

/** The note's file; a note that is a link is refused, never followed (LAY-9). */
async function notePath(memory: string, name: string): Promise<string> {
  const path = join(memory, `${name}.md`);
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) {
      throw new LinkError("REFUSED", `Cannot use note "${name}": it is a link or a folder, not a note`);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return path;
}

async function readNote(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

async function noteEntries(memory: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(memory)) {
      if (entry.isFile && entry.name.endsWith(".md") && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names.sort();
}
