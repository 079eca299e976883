import { join } from "node:path";
import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { defineTool, ok } from "./define_tool.ts";
import type { AgentFolders, HarnessTool } from "./harness_tool.ts";
import { resolveInView } from "./resolve_in_view.ts";
import { type Access, accessOf, isCollection, VIEW_COLLECTIONS, viewSegments } from "./view_access.ts";

/** The most entries one list_files call shows. */
export const LIST_MAX_ENTRIES = 1000;

const Args = z.strictObject({
  path: z.string().optional().describe('A folder in your folders; "." (the default) lists the top'),
});

/**
 * list_files: what a folder of the view holds. The top shows Home's own folders as [files]
 * shows them, with instructions/, skills/ and chats/ beside them (LAY-5); a folder the grants
 * hide is left out. Links are shown as links, never followed.
 */
export function listFilesTool(): HarnessTool {
  return defineTool({
    name: "list_files",
    description: "List a folder of your folders: each folder ends with /, each file shows its size. " +
      'The top (".") shows Home\'s folders with instructions/, skills/ and chats/ beside them.',
    args: Args,
    async run({ path = "." }, ctx) {
      const files = ctx.grants.files;
      if (viewSegments(path).length === 0) return ok(render(await topEntries(ctx.folders, files)));
      const target = await resolveInView(path, "read", { folders: ctx.folders, files });
      if (!target.exists) throw new LinkError("REFUSED", `Cannot list "${target.view}": it does not exist`);
      if (!(await Deno.stat(target.real)).isDirectory) {
        throw new LinkError("REFUSED", `Cannot list "${target.view}": it is a file`, {
          hint: "Call read_file to read it",
        });
      }
      return ok(render(await entriesOf(target.real)));
    },
  });
}

interface Entry {
  name: string;
  line: string;
  collection?: boolean;
}

/** The top of the view: Home's own entries as [files] shows them, and the collections beside them. */
async function topEntries(folders: AgentFolders, files: Readonly<Record<string, Access>>): Promise<Entry[]> {
  const home = await entriesOf(folders.home).catch(() => []);
  return (await withCollections(home, folders, files)).filter((e) => visibleAtTop(e, files));
}

async function withCollections(
  home: Entry[],
  folders: AgentFolders,
  files: Readonly<Record<string, Access>>,
): Promise<Entry[]> {
  const own = home.filter((e) => !isCollection(e.name));
  for (const name of VIEW_COLLECTIONS) {
    if (accessOf(files, [name]) === "none") continue;
    const exists = await Deno.stat(folders[name]).then((s) => s.isDirectory, () => false);
    if (exists) own.push({ name, line: `${name}/`, collection: true });
  }
  return own.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function visibleAtTop(entry: Entry, files: Readonly<Record<string, Access>>): boolean {
  return entry.collection === true || accessOf(files, [entry.name]) !== "none";
}

async function entriesOf(dir: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isSymlink) entries.push({ name: entry.name, line: `${entry.name} (link)` });
    else if (entry.isDirectory) entries.push({ name: entry.name, line: `${entry.name}/` });
    else {
      const size = await Deno.lstat(join(dir, entry.name)).then((s) => s.size, () => 0);
      entries.push({ name: entry.name, line: `${entry.name} (${size} bytes)` });
    }
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function render(entries: Entry[]): string {
  if (entries.length === 0) return "(empty)";
  const lines = entries.slice(0, LIST_MAX_ENTRIES).map((e) => e.line);
  if (entries.length > LIST_MAX_ENTRIES) {
    lines.push(`(and ${entries.length - LIST_MAX_ENTRIES} more not shown)`);
  }
  return lines.join("\n");
}
