import { join } from "node:path";
import { isWithin } from "./mount_list.ts";
import type { Placeholders } from "./placeholders.ts";
import {
  IN_GIT,
  IN_HOME,
  IN_PLACES,
  type ProtectedEntry,
  SCAN_LIMITS,
  SCAN_SKIPS,
} from "./protected_list.ts";
import { closeFd, type EntryType, fdPath, openEntry, statFd, walkNoFollow } from "./walk_no_follow.ts";

/** A writable folder a sandbox shows, open by descriptor at its real path. */
export interface GuardRoot {
  readonly fd: number;
  readonly real: string;
}

/** What guardRoot needs besides the folder. */
export interface GuardOptions {
  /** The person's home folder (real path), where IN_HOME holds. */
  readonly home: string;
  /** Places the owner lifted (real paths): each, and what is in it, stays writable. */
  readonly lifted: readonly string[];
  /** Other mounts inside this folder: each decides what it shows, and is scanned as a folder of its own. */
  readonly inner: readonly string[];
  /** Where stand-ins are made and recorded; without it, guardRoot only looks (show --permissions). */
  readonly placeholders?: Placeholders;
}

/** One protected place and what holds there. */
export interface ProtectedPlace {
  readonly path: string;
  readonly state: "pinned" | "read-only" | "placeholder" | "lifted";
}

/** A mount keeping a protected place: its descriptor (close-on-exec, the caller's) bound at `dest`. */
export interface GuardMount {
  readonly dest: string;
  readonly fd: number;
  readonly access: "ro" | "pin";
}

/** What guardRoot found and made. */
export interface Guarded {
  readonly mounts: GuardMount[];
  readonly places: ProtectedPlace[];
  /** Where a limit of the walk was reached (SCAN_LIMITS): repositories past it are not kept. */
  readonly notices: string[];
  /** Folders with folders deeper than SCAN_LIMITS.depth, where repositories were not looked for. */
  readonly deeper: string[];
}

/**
 * Keeps the protected places (protected_list.ts) of one writable folder a sandbox shows: at the
 * folder itself, in each repository found at or below it (a bounded walk, never through a link),
 * and in the person's home folder when it is in there. Each existing one gets a read-only mount
 * (`.git` bound onto itself, so it cannot be renamed), each folder on the way to one is bound onto
 * itself too (so no parent is swapped for one of the agent's), and a missing one gets a stand-in
 * where protected_list.ts says. A link where one should be is refused (SYMLINK_REFUSED).
 */
export function guardRoot(root: GuardRoot, options: GuardOptions): Guarded {
  const found: Guarded = { mounts: [], places: [], notices: [], deeper: [] };
  const keep = new Map<string, GuardMount["access"]>();
  const { repositories, notices, cut } = findRepositories(root, options.inner);
  found.notices.push(...notices);
  if (cut) found.deeper.push(root.real);
  const wants: [place: string, entries: readonly ProtectedEntry[], standIns: boolean][] = [];
  if (!repositories.includes(root.real)) wants.push([root.real, IN_PLACES, false]);
  for (const repo of repositories) wants.push([repo, IN_PLACES, true], [join(repo, ".git"), IN_GIT, true]);
  if (isWithin(options.home, root.real)) wants.push([options.home, IN_HOME, true]);
  try {
    for (const [place, entries, standIns] of wants) {
      for (const entry of entries) {
        keepEntry(root, join(place, entry.name), entry, standIns, options, keep, found);
      }
    }
    for (const dest of [...keep.keys()]) {
      for (let at = dest.lastIndexOf("/"); at > root.real.length; at = dest.lastIndexOf("/", at - 1)) {
        const parent = dest.slice(0, at);
        if (!keep.has(parent) && !options.inner.includes(parent)) keep.set(parent, "pin");
      }
    }
    for (const [dest, access] of keep) {
      const opened = openUnder(root, dest);
      if (opened.fd === undefined) continue;
      if (!options.placeholders) closeFd(opened.fd);
      else found.mounts.push({ dest, fd: opened.fd, access: opened.type === "dir" ? access : "ro" });
    }
  } catch (err) {
    for (const m of found.mounts.splice(0)) closeFd(m.fd);
    throw err;
  }
  return found;
}

function keepEntry(
  root: GuardRoot,
  dest: string,
  entry: ProtectedEntry,
  standIns: boolean,
  options: GuardOptions,
  keep: Map<string, GuardMount["access"]>,
  found: Guarded,
): void {
  if (options.lifted.some((l) => isWithin(dest, l))) {
    if (entryType(root, dest) !== "missing") found.places.push({ path: dest, state: "lifted" });
    return;
  }
  if (options.inner.some((m) => isWithin(dest, m)) || !isWithin(dest, root.real) || dest === root.real) {
    return;
  }
  const type = entryType(root, dest);
  if (type !== "missing") {
    options.placeholders?.holdIfOthers(dest);
    const pin = entry.pin && type === "dir";
    keep.set(dest, pin ? "pin" : "ro");
    found.places.push({ path: dest, state: pin ? "pinned" : "read-only" });
    return;
  }
  if (!standIns || entry.missing === "none") return;
  found.places.push({ path: dest, state: "placeholder" });
  const made = options.placeholders;
  if (!made) return;
  const parent = dest.slice(0, dest.lastIndexOf("/"));
  const dir = walkNoFollow(parent.slice(root.real.length), {
    writable: ["/"],
    what: `the protected place "${dest}"`,
    from: { fd: root.fd, path: root.real },
    make: 0o755,
    made: (path) => made.made.push({ path }),
  }).fd!;
  try {
    const name = dest.slice(parent.length + 1);
    if (entry.missing === "folder") Deno.mkdirSync(fdPath(dir, name), { mode: 0o755 });
    else Deno.writeTextFileSync(fdPath(dir, name), entry.missing.file, { createNew: true, mode: 0o644 });
    made.made.push(entry.missing === "folder" ? { path: dest } : { path: dest, text: entry.missing.file });
  } finally {
    closeFd(dir);
  }
  keep.set(dest, "ro");
}

/** What is at `dest` under the root, never following a link (a link there is refused). */
function entryType(root: GuardRoot, dest: string): EntryType | "missing" {
  const opened = openUnder(root, dest);
  if (opened.fd !== undefined) closeFd(opened.fd);
  return opened.type;
}

function openUnder(root: GuardRoot, dest: string) {
  return walkNoFollow(dest.slice(root.real.length), {
    writable: ["/"],
    what: `the protected place "${dest}"`,
    from: { fd: root.fd, path: root.real },
  });
}

/**
 * The repositories at or below a folder (folders holding a `.git`), looked for depth-first to
 * SCAN_LIMITS, never into a link, `.git`, node_modules or another mount; a notice says where it stopped.
 */
function findRepositories(root: GuardRoot, inner: readonly string[]) {
  const repositories: string[] = [];
  const notices: string[] = [];
  const stack: { fd: number; path: string; depth: number; own: boolean }[] = [
    { fd: root.fd, path: root.real, depth: 0, own: false },
  ];
  let read = 0;
  let cut = false;
  try {
    while (stack.length) {
      const node = stack.pop()!;
      try {
        if (++read > SCAN_LIMITS.folders) {
          notices.push(
            `Looked for repositories in the first ${SCAN_LIMITS.folders} folders of "${root.real}" only: ` +
              "protected places in repositories past them are not kept",
          );
          break;
        }
        const entries = readFolder(node.fd);
        if (entries.some((e) => e.name === ".git")) {
          if (repositories.length < SCAN_LIMITS.repositories) repositories.push(node.path);
          else if (repositories.length === SCAN_LIMITS.repositories) {
            notices.push(
              `Found more than ${SCAN_LIMITS.repositories} repositories in "${root.real}": ` +
                `those after "${repositories.at(-1)}" are not kept`,
            );
          }
        }
        for (const e of entries) {
          const path = join(node.path, e.name);
          if (!e.isDirectory || SCAN_SKIPS.includes(e.name) || inner.some((m) => isWithin(path, m))) continue;
          if (node.depth >= SCAN_LIMITS.depth) {
            cut = true;
            break;
          }
          const fd = openEntry(node.fd, e.name);
          if (fd === undefined) continue;
          if (statFd(fd).type !== "dir") closeFd(fd);
          else stack.push({ fd, path, depth: node.depth + 1, own: true });
        }
      } finally {
        if (node.own) closeFd(node.fd);
      }
    }
  } finally {
    for (const node of stack) if (node.own) closeFd(node.fd);
  }
  return { repositories, notices, cut };
}

function readFolder(fd: number): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(fdPath(fd))];
  } catch {
    return [];
  }
}
