import { join } from "node:path";
import { LinkError } from "../core/base/mod.ts";
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
import { closeFd, fdPath, openEntry, statFd, walkNoFollow } from "./walk_no_follow.ts";

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
  const { repositories, notices, cut } = findRepositories(root, options.inner);
  found.notices.push(...notices);
  if (cut) found.deeper.push(root.real);
  const wants: [place: string, entries: readonly ProtectedEntry[], standIns: boolean][] = [];
  if (!repositories.includes(root.real)) wants.push([root.real, IN_PLACES, false]);
  for (const repo of repositories) wants.push([repo, IN_PLACES, true], [join(repo, ".git"), IN_GIT, true]);
  if (isWithin(options.home, root.real)) wants.push([options.home, IN_HOME, true]);
  const kept = new Map<string, GuardMount>();
  try {
    for (const [place, entries, standIns] of wants) {
      const at = openUnder(root, place);
      if (at.fd === undefined) continue;
      try {
        if (at.type !== "dir") continue;
        const dir = { fd: at.fd, real: place };
        for (const entry of entries) keepEntry(dir, entry, standIns, options, kept, found);
      } finally {
        closeFd(at.fd);
      }
    }
    for (const dest of [...kept.keys()]) {
      for (let at = dest.lastIndexOf("/"); at > root.real.length; at = dest.lastIndexOf("/", at - 1)) {
        const parent = dest.slice(0, at);
        if (kept.has(parent) || options.inner.includes(parent)) continue;
        const pin = openUnder(root, parent);
        if (pin.fd !== undefined) kept.set(parent, { dest: parent, fd: pin.fd, access: "pin" });
      }
    }
  } catch (err) {
    for (const m of kept.values()) closeFd(m.fd);
    throw err;
  }
  if (options.placeholders) found.mounts.push(...kept.values());
  else for (const m of kept.values()) closeFd(m.fd);
  return found;
}

/** Keeps one protected place in an open folder: read-only (or pinned) if there, else a stand-in where one is due. */
function keepEntry(
  dir: GuardRoot,
  entry: ProtectedEntry,
  standIns: boolean,
  options: GuardOptions,
  kept: Map<string, GuardMount>,
  found: Guarded,
): void {
  const dest = join(dir.real, entry.name);
  if (options.inner.some((m) => isWithin(dest, m))) return;
  if (options.lifted.some((l) => isWithin(dest, l))) {
    if (there(dir, entry.name)) found.places.push({ path: dest, state: "lifted" });
    return;
  }
  const at = openUnder(dir, dest);
  if (at.fd !== undefined) {
    options.placeholders?.holdIfOthers(dest);
    const pin = entry.pin && at.type === "dir";
    kept.set(dest, { dest, fd: at.fd, access: pin ? "pin" : "ro" });
    found.places.push({ path: dest, state: pin ? "pinned" : "read-only" });
    return;
  }
  if (!standIns || entry.missing === "none") return;
  found.places.push({ path: dest, state: "placeholder" });
  const made = options.placeholders;
  if (!made) return;
  const parent = dest.slice(0, dest.lastIndexOf("/"));
  const holder = walkNoFollow(parent.slice(dir.real.length), {
    writable: ["/"],
    what: `the protected place "${dest}"`,
    from: { fd: dir.fd, path: dir.real },
    make: 0o755,
    made: (path) => made.made.push({ path }),
  }).fd!;
  try {
    const name = dest.slice(parent.length + 1);
    if (entry.missing === "folder") Deno.mkdirSync(fdPath(holder, name), { mode: 0o755 });
    else Deno.writeTextFileSync(fdPath(holder, name), entry.missing.file, { createNew: true, mode: 0o644 });
    made.made.push(entry.missing === "folder" ? { path: dest } : { path: dest, text: entry.missing.file });
    const fd = openEntry(holder, name);
    if (fd !== undefined) kept.set(dest, { dest, fd, access: "ro" });
  } finally {
    closeFd(holder);
  }
}

/** Whether anything (a link too) is at `name` in an open folder. */
function there(dir: GuardRoot, name: string): boolean {
  try {
    Deno.lstatSync(fdPath(dir.fd, name));
    return true;
  } catch {
    return false;
  }
}

/** Opens `dest` below an open folder, never following a link (a link on the way is refused). */
function openUnder(dir: GuardRoot, dest: string) {
  return walkNoFollow(dest.slice(dir.real.length), {
    writable: ["/"],
    what: `the protected place "${dest}"`,
    from: { fd: dir.fd, path: dir.real },
    refusal: (link) => protectedLinkRefusal(link, dest),
  });
}

/** A link where a protected place is, or on the way to one: it cannot be kept, so the start is refused. */
function protectedLinkRefusal(link: string, dest: string): LinkError {
  return new LinkError(
    "SYMLINK_REFUSED",
    `Cannot start the sandbox: "${link}" is a symbolic link, where Link keeps "${dest}" from being changed ` +
      "(a link cannot be kept read-only, and the agent could change where it leads)",
    {
      hint: `Put the real folder or file at "${link}", or let the agent change it with ` +
        `\`lnk agent allow --write-protected ${dest}\`, then start again`,
    },
  );
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
