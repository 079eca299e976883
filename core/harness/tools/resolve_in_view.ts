import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { AgentFolders } from "./harness_tool.ts";
import {
  type Access,
  accessOf,
  allows,
  isCollection,
  leastAccess,
  refused,
  VIEW_COLLECTIONS,
  viewPath,
  viewSegments,
} from "./view_access.ts";

/** A path of the view, checked against the grants and found on disk. */
export interface ViewTarget {
  /** The path as the view names it: "." or "work/notes.txt". */
  readonly view: string;
  readonly segments: readonly string[];
  /** Where it is on disk, every link resolved. */
  readonly real: string;
  readonly exists: boolean;
  /** What the grants allow here: the lesser of the path asked for and the place it leads to. */
  readonly access: Access;
}

/**
 * Finds a path of the agent's view on disk for reading or writing, refusing (LinkError "REFUSED")
 * what the grants ([files]) do not allow (LAY-5), any write to chats/ (LAY-7), and any path that
 * leads out of the view: "..", absolute paths, and links whose target, resolved with realpath, lies
 * outside or in a folder the grants allow less. A hard link is a regular file (LAY-9). Inside the
 * agent's sandbox the mounts enforce the same grants again; this check is what holds where the
 * harness runs without one.
 */
export async function resolveInView(
  path: string,
  want: Exclude<Access, "none">,
  view: { folders: AgentFolders; files: Readonly<Record<string, Access>> },
): Promise<ViewTarget> {
  const segments = viewSegments(path);
  const shown = viewPath(segments);
  checkGrant(shown, segments, view.files, want);
  const top = segments[0];
  const root = isCollection(top) ? view.folders[top] : view.folders.home;
  const rest = isCollection(top) ? segments.slice(1) : segments;
  const roots = await realRoots(view.folders);
  const rootReal = isCollection(top) ? roots.collections.get(top) : roots.home;
  if (rootReal === undefined) {
    throw refused(shown, `the folder "${isCollection(top) ? `${top}/` : "."}" does not exist`);
  }
  const found = await realOf(join(root, ...rest), rest.length, shown);
  const landed = viewOfReal(found.real, roots);
  if (landed === undefined) throw refused(shown, "it is a link that leads outside your folders");
  const access = leastAccess(accessOf(view.files, segments), accessOf(view.files, landed));
  if (!allows(access, want)) {
    throw refused(shown, `it is a link to "${viewPath(landed)}", which your grants do not let you ${want}`);
  }
  return { view: shown, segments, real: found.real, exists: found.exists, access };
}

function checkGrant(
  shown: string,
  segments: readonly string[],
  files: Readonly<Record<string, Access>>,
  want: Access,
): void {
  const have = accessOf(files, segments);
  if (allows(have, want)) return;
  const top = segments[0];
  if (top === "chats" && want === "write") {
    throw refused(shown, "chats/ is never writable to a tool: only the harness writes it (LAY-7)");
  }
  const named = top !== undefined && (isCollection(top) || files[top] !== undefined);
  const where = named ? `"${top}/"` : 'Home (".")';
  const hint = "Your owner grants folders in the agent's sandbox file ([files]) with `lnk agent allow`";
  if (have === "none") throw refused(shown, `your grants ([files]) do not show ${where}`, hint);
  throw refused(shown, `your grants ([files]) make ${where} read-only`, hint);
}

interface RealRoots {
  home: string | undefined;
  collections: Map<string, string>;
  /** Agent/ and Agent/memory: never in the view but through the collections above. */
  hidden: string[];
}

async function realRoots(folders: AgentFolders): Promise<RealRoots> {
  const collections = new Map<string, string>();
  for (const name of VIEW_COLLECTIONS) {
    const real = await realOrUndefined(folders[name]);
    if (real !== undefined) collections.set(name, real);
  }
  const home = await realOrUndefined(folders.home);
  const hidden = [await realOrUndefined(folders.memory), await realOrUndefined(dirname(folders.instructions))]
    .filter((p): p is string => p !== undefined && (home === undefined || !within(p, home)));
  return { home, collections, hidden };
}

/** The view names of a real path, or undefined when the view does not show it. */
function viewOfReal(real: string, roots: RealRoots): string[] | undefined {
  for (const [name, root] of roots.collections) {
    if (within(root, real)) return [name, ...parts(relative(root, real))];
  }
  if (roots.hidden.some((h) => within(h, real))) return undefined;
  if (roots.home === undefined || !within(roots.home, real)) return undefined;
  const names = parts(relative(roots.home, real));
  // Home's own folder named like a collection is covered by the collection in the view.
  return isCollection(names[0]) ? undefined : names;
}

/** Resolves the deepest part that exists; a missing rest is kept as written. */
async function realOf(
  target: string,
  depth: number,
  shown: string,
): Promise<{ real: string; exists: boolean }> {
  const missing: string[] = [];
  let at = target;
  for (let i = 0; i <= depth; i++) {
    try {
      return { real: join(await Deno.realPath(at), ...missing), exists: missing.length === 0 };
    } catch (err) {
      if (await isLink(at)) throw refused(shown, "it is a link that leads nowhere, or in a loop");
      if (err instanceof Deno.errors.NotADirectory) {
        throw refused(shown, "a part of it is a file, not a folder");
      }
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    missing.unshift(basename(at));
    at = dirname(at);
  }
  throw refused(shown, "its folder does not exist");
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await Deno.lstat(path)).isSymlink;
  } catch {
    return false;
  }
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

function parts(rel: string): string[] {
  return rel === "" ? [] : rel.split(sep);
}
