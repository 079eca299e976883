// The view's grants alone: the prompt is made at a harness's start, which loads no tool before its first call (PRC-13).
import { type Access, accessOf, VIEW_COLLECTIONS } from "../tools/view_access.ts";
import { byCodePoint } from "./list_skills.ts";

const COLLECTION_NOTES: Record<string, string> = {
  instructions: "your instructions, which your owner edits",
  skills: "your skills",
  chats: "your conversations, which only the harness writes",
};
const COLLECTIONS: readonly string[] = VIEW_COLLECTIONS;

/**
 * The folders the tools see, said for the prompt (LAY-5): "." (all of Home), the agent's
 * instructions/, skills/ and chats/ beside Home's own folders, and what [files] allows on each.
 * Without grants, the folders alone.
 */
export function describeFolders(files?: Readonly<Record<string, Access>>): string {
  const access = (name: string): string => {
    if (files === undefined) return "";
    const granted = accessOf(files, name === "." ? [] : [name]);
    return `: ${granted === "none" ? "hidden" : granted === "read" ? "read only" : "read and write"}`;
  };
  const lines = [
    'Your file tools see one set of folders; paths are relative to it, such as "work/notes.md".',
    `- . (Home: your owner's documents and your work)${access(".")}`,
    ...COLLECTIONS.map((name) => `- ${name}/ (${COLLECTION_NOTES[name]})${access(name)}`),
  ];
  const named = Object.keys(files ?? {}).filter((n) => n !== "." && !COLLECTIONS.includes(n)).sort(
    byCodePoint,
  );
  for (const name of named) lines.push(`- ${name}/${access(name)}`);
  lines.push(
    "Programs started with run begin in Home. Your notes (note_write, note_read, note_list) are kept apart from these folders.",
  );
  return lines.join("\n");
}
