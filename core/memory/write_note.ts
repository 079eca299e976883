import { z } from "zod";
import { atomicWrite, joinPath, LinkError, readTextIfExists } from "../base/mod.ts";

/** The largest note, as Link Harness's own note tools take it. */
export const NOTE_MAX_CHARS = 256 * 1024;

/** A note's name: a short plain word, `.md` added. */
export const NoteName = z.string().regex(
  /^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/,
  "must be a short name of letters, digits, - _ and .",
)
  .transform((name) => name.replace(/\.md$/i, ""))
  .refine((name) => name !== "" && !name.includes(".."), 'must not be empty or hold ".."');

/** What a note write did. */
export interface NoteWritten {
  readonly note: string;
  readonly chars: number;
  readonly appended: boolean;
}

/**
 * Writes one of the agent's notes in `Agent/memory/<name>.md` from outside the sandbox: the folder
 * must be a real folder and the note a regular file or missing (a link the harness planted is
 * refused, never written through: LAY-9), and the note is written by a temp file renamed over it,
 * so no reader sees half of it.
 */
export async function writeNote(
  agentFolder: string,
  note: { name: string; text: string; append?: boolean },
): Promise<NoteWritten> {
  const parsed = NoteName.safeParse(note.name);
  if (!parsed.success) {
    throw new LinkError(
      "INVALID",
      `Cannot write note "${note.name}": its name ${parsed.error.issues[0]!.message}`,
      {
        hint: 'Name it with a short word, such as "people" or "project-plan"',
      },
    );
  }
  const name = parsed.data;
  const folder = joinPath(agentFolder, "memory");
  const kind = await kindOf(folder);
  if (kind === "missing") await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  else if (kind !== "dir") throw refused(name, "the notes folder is a link or not a folder");
  const path = joinPath(folder, `${name}.md`);
  const at = await kindOf(path);
  if (at !== "missing" && at !== "file") throw refused(name, "it is a link or a folder, not a note");
  const before = note.append && at === "file" ? (await readTextIfExists(path)) ?? "" : "";
  const joined = before === "" || before.endsWith("\n") ? before + note.text : `${before}\n${note.text}`;
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
  return { note: name, chars: joined.length, appended: note.append === true };
}

function refused(name: string, why: string): LinkError {
  return new LinkError("SYMLINK_REFUSED", `Cannot write note "${name}": ${why}`, {
    hint: "Remove what is there in Agent/memory/, then write the note again",
  });
}

async function kindOf(path: string): Promise<"missing" | "file" | "dir" | "other"> {
  try {
    const info = await Deno.lstat(path);
    return info.isFile ? "file" : info.isDirectory ? "dir" : "other";
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "missing";
    throw err;
  }
}
