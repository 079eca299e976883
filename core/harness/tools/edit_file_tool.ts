import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";
import { resolveInView } from "./resolve_in_view.ts";

/** The largest file edit_file changes. */
export const EDIT_MAX_BYTES = 4 * 1024 * 1024;

const Args = z.strictObject({
  path: z.string().min(1).describe("A text file in your folders"),
  old_text: z.string().min(1).describe("The exact text to replace, as it is in the file"),
  new_text: z.string().describe("The text to put in its place"),
  replace_all: z.boolean().optional().describe("Replace every place the text occurs, not only one"),
});

/**
 * edit_file: replaces an exact piece of a text file. The piece must occur exactly once unless
 * replace_all is set, so an edit never lands somewhere the model did not mean.
 */
export function editFileTool(): HarnessTool {
  return defineTool({
    name: "edit_file",
    description: "Change a text file in your folders by replacing an exact piece of it. " +
      "old_text must occur exactly once (include surrounding lines to make it unique), " +
      "unless replace_all is true.",
    args: Args,
    async run({ path, old_text, new_text, replace_all }, ctx) {
      const target = await resolveInView(path, "write", { folders: ctx.folders, files: ctx.grants.files });
      const cannot = (why: string, hint?: string) =>
        new LinkError("REFUSED", `Cannot edit "${target.view}": ${why}`, hint ? { hint } : {});
      if (!target.exists) throw cannot("it does not exist", "Create it with write_file");
      const info = await Deno.stat(target.real);
      if (!info.isFile) throw cannot("it is not a file");
      if (info.size > EDIT_MAX_BYTES) throw cannot(`it is larger than ${EDIT_MAX_BYTES} bytes`);
      const text = await Deno.readTextFile(target.real);
      const count = text.split(old_text).length - 1;
      if (count === 0) {
        throw cannot("old_text does not occur in it", "Read the file and copy the text exactly");
      }
      if (count > 1 && !replace_all) {
        throw cannot(
          `old_text occurs ${count} times`,
          "Include more of the surrounding text so it occurs once, or set replace_all",
        );
      }
      const next = replace_all ? text.split(old_text).join(new_text) : replaceOnce(text, old_text, new_text);
      await Deno.writeTextFile(target.real, next);
      return ok(`Replaced ${count === 1 ? "1 place" : `${count} places`} in "${target.view}"`);
    },
  });
}

function replaceOnce(text: string, old: string, replacement: string): string {
  const at = text.indexOf(old);
  return text.slice(0, at) + replacement + text.slice(at + old.length);
}
