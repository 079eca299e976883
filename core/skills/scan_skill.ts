import { LinkError } from "../base/mod.ts";
import { closeFd, fdPath, openEntry, statFd } from "../../sandbox/mod.ts";
import { byCodePoint } from "../harness/prompt/mod.ts";

/** How much one skill may hold (SKL-2): past any of these, `skill add` refuses it whole. */
export const SKILL_LIMITS = { files: 1_000, bytes: 64 * 1024 * 1024, folders: 1_000, depth: 32 } as const;

/** A folder of a skill as it was scanned: what the copy must find again, entry by entry. */
export interface ScannedFolder {
  readonly ino: bigint;
  readonly entries: readonly ScannedEntry[];
}

/** A regular file or a folder, by name, with the inode it had. */
export type ScannedEntry =
  | { readonly kind: "file"; readonly name: string; readonly ino: bigint; readonly size: number }
  | { readonly kind: "dir"; readonly name: string; readonly ino: bigint; readonly folder: ScannedFolder };

/** An entry left out of the copy, by its path in the skill: a link, or neither a file nor a folder. */
export interface LeftOut {
  readonly path: string;
  readonly kind: "link" | "other";
}

/** A skill's tree, within the limits, and what was left out of it. */
export interface SkillScan {
  readonly root: ScannedFolder;
  readonly files: number;
  /** Folders below the skill's own. */
  readonly folders: number;
  readonly bytes: number;
  readonly leftOut: readonly LeftOut[];
}

/** How a scan goes. */
export interface ScanOptions {
  /** What is scanned, for a refusal: `skill "pdf"`. */
  readonly what: string;
  /** Names left out of the skill's own folder unsaid (a clone's `.git`). */
  readonly skip?: readonly string[];
}

/**
 * Scans a skill's folder, open at `rootFd`, through each folder's descriptor without following a
 * link (SKL-3): links and anything that is not a regular file or a folder are left out and
 * named; past SKILL_LIMITS it refuses with REFUSED as soon as one is passed, so a huge tree is
 * never read whole (SKL-2).
 */
export function scanSkill(rootFd: number, options: ScanOptions): SkillScan {
  const counts = { files: 0, folders: 0, bytes: 0 };
  const leftOut: LeftOut[] = [];
  const scanFolder = (fd: number, path: string, depth: number): ScannedFolder => {
    const entries: ScannedEntry[] = [];
    const names = [...Deno.readDirSync(fdPath(fd))].map((e) => e.name).sort(byCodePoint);
    for (const name of names) {
      if (depth === 0 && options.skip?.includes(name)) continue;
      const rel = path ? `${path}/${name}` : name;
      const child = openEntry(fd, name);
      if (child === undefined) continue;
      try {
        const { type, ino } = statFd(child);
        if (type === "symlink" || type === "other") {
          leftOut.push({ path: rel, kind: type === "symlink" ? "link" : "other" });
        } else if (type === "file") {
          const size = Deno.statSync(fdPath(child)).size;
          count(counts, { files: 1, bytes: size }, options.what);
          entries.push({ kind: "file", name, ino, size });
        } else {
          if (depth + 1 > SKILL_LIMITS.depth) {
            throw overLimit(options.what, `folders more than ${SKILL_LIMITS.depth} deep`);
          }
          count(counts, { folders: 1 }, options.what);
          entries.push({ kind: "dir", name, ino, folder: scanFolder(child, rel, depth + 1) });
        }
      } finally {
        closeFd(child);
      }
    }
    return { ino: statFd(fd).ino, entries };
  };
  const root = scanFolder(rootFd, "", 0);
  return { root, ...counts, leftOut };
}

/** Adds to the counts, refusing the skill once one passes its limit. */
export function count(
  counts: { files: number; folders: number; bytes: number },
  add: { files?: number; folders?: number; bytes?: number },
  what: string,
): void {
  counts.files += add.files ?? 0;
  counts.folders += add.folders ?? 0;
  counts.bytes += add.bytes ?? 0;
  if (counts.files > SKILL_LIMITS.files) {
    throw overLimit(what, `more than ${SKILL_LIMITS.files.toLocaleString("en")} files`);
  }
  if (counts.folders > SKILL_LIMITS.folders) {
    throw overLimit(what, `more than ${SKILL_LIMITS.folders.toLocaleString("en")} folders`);
  }
  if (counts.bytes > SKILL_LIMITS.bytes) {
    throw overLimit(what, `more than ${SKILL_LIMITS.bytes / 1024 / 1024} MB`);
  }
}

function overLimit(what: string, past: string): LinkError {
  return new LinkError("REFUSED", `Cannot add ${what}: it holds ${past}`, {
    hint: "A skill holds at most 1,000 files, 64 MB and 1,000 folders at most 32 deep: add a smaller " +
      "folder of the repository (its page, .../tree/<ref>/<folder>)",
  });
}
