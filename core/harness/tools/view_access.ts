import { LinkError } from "../../base/mod.ts";

/** What a grant allows on a folder of the view. */
export type Access = "none" | "read" | "write";

/** The agent's own folders shown beside Home's (LAY-5); Home's own folders of these names are hidden. */
export const VIEW_COLLECTIONS = ["instructions", "skills", "chats"] as const;
export type ViewCollection = (typeof VIEW_COLLECTIONS)[number];

const RANK: Record<Access, number> = { none: 0, read: 1, write: 2 };

/** Tells whether a name is one of the agent's own folders in the view. */
export function isCollection(name: string | undefined): name is ViewCollection {
  return (VIEW_COLLECTIONS as readonly string[]).includes(name ?? "");
}

/** The lesser of two accesses. */
export function leastAccess(a: Access, b: Access): Access {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Tells whether `have` allows `want`. */
export function allows(have: Access, want: Access): boolean {
  return RANK[have] >= RANK[want];
}

/**
 * The access [files] gives a path of the view, by its first name: a collection has its own line
 * (none without one), any other folder its own line or "."'s (LAY-5, LAY-6). chats/ is at most
 * readable (LAY-7).
 */
export function accessOf(files: Readonly<Record<string, Access>>, segments: readonly string[]): Access {
  const top = segments[0];
  if (top === undefined) return files["."] ?? "none";
  if (isCollection(top)) {
    const access = files[top] ?? "none";
    return top === "chats" ? leastAccess(access, "read") : access;
  }
  return files[top] ?? files["."] ?? "none";
}

/**
 * Splits a path of the view into names. Refuses what could name a place outside the view: an
 * absolute path, "..", a NUL or a backslash. "", "." and "./" all name the whole view.
 */
export function viewSegments(path: string): string[] {
  if (path.startsWith("/") || path.startsWith("~")) {
    throw refused(path, 'it is absolute: paths are relative to your folders, such as "work/notes.txt"');
  }
  if (path.includes("\0") || path.includes("\\")) throw refused(path, "it holds a NUL or a backslash");
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw refused(path, 'it climbs out with ".."');
  return segments;
}

/** The view path of some names: "." for none. */
export function viewPath(segments: readonly string[]): string {
  return segments.length === 0 ? "." : segments.join("/");
}

/** A refusal of a path, said to the model. */
export function refused(path: string, why: string, hint?: string): LinkError {
  return new LinkError("REFUSED", `Cannot use "${path}": ${why}`, hint ? { hint } : {});
}
