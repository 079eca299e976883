import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { HarnessTool } from "./harness_tool.ts";
import { resolveInView } from "./resolve_in_view.ts";

/** The most a read_file call returns: one page of a file. */
export const READ_PAGE_BYTES = 256 * 1024;

const Args = z.strictObject({
  path: z.string().min(1).describe(
    'A path in your folders, such as "work/notes.md" or "instructions/agent.md"',
  ),
  offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()
    .describe("The byte to start at, for reading a long file page by page"),
});

/** read_file: one page of a text file of the view, at most 256 KiB, paged by byte offset. */
export function readFileTool(): HarnessTool {
  return defineTool({
    name: "read_file",
    description: "Read a text file from your folders. Long files come in pages of 256 KiB; " +
      "the end of a page says the offset to read on from.",
    args: Args,
    async run({ path, offset = 0 }, ctx) {
      const target = await resolveInView(path, "read", { folders: ctx.folders, files: ctx.grants.files });
      if (!target.exists) throw new LinkError("REFUSED", `Cannot read "${target.view}": it does not exist`);
      const info = await Deno.stat(target.real);
      if (info.isDirectory) {
        throw new LinkError("REFUSED", `Cannot read "${target.view}": it is a folder`, {
          hint: "Call list_files to see what it holds",
        });
      }
      const page = await readPage(target.real, offset);
      if (isBinary(page)) {
        return ok(`"${target.view}" is a binary file of ${info.size} bytes; it is not shown`);
      }
      const { text, bytes } = wholeCharacters(page, offset + page.length < info.size);
      const end = offset + bytes;
      if (offset === 0 && end >= info.size) return ok(text);
      const more = end < info.size ? ` To read on, call read_file with offset ${end}.` : "";
      return ok(`${text}\n\n[Bytes ${offset} to ${end} of ${info.size}.${more}]`);
    },
  });
}

async function readPage(path: string, offset: number): Promise<Uint8Array> {
  using file = await Deno.open(path, { read: true });
  await file.seek(offset, Deno.SeekMode.Start);
  const buffer = new Uint8Array(READ_PAGE_BYTES);
  let filled = 0;
  while (filled < buffer.length) {
    const n = await file.read(buffer.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Decodes a page, leaving a character cut at the page's end for the next page. */
function wholeCharacters(page: Uint8Array, cut: boolean): { text: string; bytes: number } {
  let end = page.length;
  if (cut) {
    let start = end - 1;
    while (start > 0 && end - start < 4 && (page[start]! & 0xc0) === 0x80) start--;
    const lead = page[start]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - start < need) end = start;
  }
  return { text: new TextDecoder().decode(page.subarray(0, end)), bytes: end };
}
