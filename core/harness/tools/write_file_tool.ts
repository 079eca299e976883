import { dirname } from "node:path";
import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";
import { resolveInView } from "./resolve_in_view.ts";

/** The most one write_file call writes. */
export const WRITE_MAX_CHARS = 1024 * 1024;

const Args = z.strictObject({
  path: z.string().min(1).describe('A path in your folders, such as "work/report.md"'),
  content: z.string().max(WRITE_MAX_CHARS).describe("The whole new content of the file"),
});

/** write_file: creates or replaces a text file of the view, making its folders, where [files] allows writing. */
export function writeFileTool(): HarnessTool {
  return defineTool({
    name: "write_file",
    description: "Create a text file in your folders, or replace one with new content. " +
      "Missing folders on the way are made. To change part of a file, use edit_file.",
    args: Args,
    async run({ path, content }, ctx) {
      const target = await resolveInView(path, "write", { folders: ctx.folders, files: ctx.grants.files });
      if (target.segments.length === 0 || (target.exists && (await Deno.stat(target.real)).isDirectory)) {
        throw new LinkError("REFUSED", `Cannot write "${target.view}": it is a folder`);
      }
      if (!target.exists) await Deno.mkdir(dirname(target.real), { recursive: true });
      // Written in place, not renamed over: a hard-linked file keeps its other names (LAY-9).
      const bytes = new TextEncoder().encode(content);
      await Deno.writeFile(target.real, bytes);
      return ok(`Wrote ${bytes.length} bytes to "${target.view}"`);
    },
  });
}
