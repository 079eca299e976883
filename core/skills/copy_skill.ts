import { LinkError } from "../base/mod.ts";
import { closeFd, fdPath, openEntry, statFd } from "../../sandbox/mod.ts";
import { printable } from "./printable.ts";
import { count, type ScannedFolder, type SkillScan } from "./scan_skill.ts";

const CHUNK = 64 * 1024;
const HINT = "Link never writes or reads through a link an agent could have made: " +
  "stop whatever changes the agent's skills folder, then add the skill again";

/** How a copy goes. */
export interface CopyOptions {
  /** What is copied, for a refusal: `skill "pdf"`. */
  readonly what: string;
  /** Called with each folder's path in the skill once it is made in the copy ("" the skill's own). */
  readonly onFolder?: (path: string) => void;
}

/**
 * Copies a scanned skill from the folder open at `from` into the empty folder open at `to`, every
 * file and folder opened in its folder's descriptor without following a link (SKL-3). The source
 * must be what the scan saw: an entry that became a link is refused with SYMLINK_REFUSED, one
 * that changed otherwise with CONFLICT. What it makes is made in its folder's descriptor, never
 * replacing anything, so a link planted in the copy's place is refused and nothing is written
 * through it. Folders are 0700, files 0600 (0700 when executable). The limits hold for the bytes
 * read too (SKL-2). The caller removes `to` when this throws.
 */
export function copySkill(scan: SkillScan, from: number, options: CopyOptions & { to: number }): void {
  const counts = { files: 0, folders: 0, bytes: 0 };
  options.onFolder?.("");
  copyFolder(scan.root, { src: from, dst: options.to, path: "" }, { ...options, counts });
}

interface Place {
  readonly src: number;
  readonly dst: number;
  readonly path: string;
}

type Run = CopyOptions & { counts: { files: number; folders: number; bytes: number } };

function copyFolder(folder: ScannedFolder, at: Place, run: Run): void {
  for (const entry of folder.entries) {
    const path = at.path ? `${at.path}/${entry.name}` : entry.name;
    const src = openEntry(at.src, entry.name);
    if (src === undefined) throw changed(run.what, path);
    try {
      const found = statFd(src);
      if (found.type === "symlink") throw becameLink(run.what, path, "in the repository");
      if (found.type !== entry.kind || found.ino !== entry.ino) throw changed(run.what, path);
      if (entry.kind === "file") {
        copyFile(src, { dst: at.dst, name: entry.name, path }, run);
        continue;
      }
      making(run.what, path, () => Deno.mkdirSync(fdPath(at.dst, entry.name), { mode: 0o700 }));
      const dst = openEntry(at.dst, entry.name);
      if (dst === undefined) throw changed(run.what, path);
      try {
        if (statFd(dst).type !== "dir") throw becameLink(run.what, path, "in the agent's skills folder");
        count(run.counts, { folders: 1 }, run.what);
        run.onFolder?.(path);
        copyFolder(entry.folder, { src, dst, path }, run);
      } finally {
        closeFd(dst);
      }
    } finally {
      closeFd(src);
    }
  }
}

function copyFile(src: number, to: { dst: number; name: string; path: string }, run: Run): void {
  using input = Deno.openSync(fdPath(src), { read: true });
  const mode = (input.statSync().mode ?? 0) & 0o111 ? 0o700 : 0o600;
  count(run.counts, { files: 1 }, run.what);
  // createNew is O_EXCL: a name already there, a link included, is never opened or followed.
  using output = making(
    run.what,
    to.path,
    () => Deno.openSync(fdPath(to.dst, to.name), { write: true, createNew: true, mode }),
  );
  const buf = new Uint8Array(CHUNK);
  for (;;) {
    const n = input.readSync(buf);
    if (n === null || n === 0) break;
    count(run.counts, { bytes: n }, run.what);
    let written = 0;
    while (written < n) written += output.writeSync(buf.subarray(written, n));
  }
}

/** Makes one entry of the copy; something already in its place was put there by someone else. */
function making<T>(what: string, path: string, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    throw new LinkError(
      "SYMLINK_REFUSED",
      `Cannot add ${what}: "${printable(path)}" was put in the copy by someone else while it was copied`,
      { hint: HINT },
    );
  }
}

function becameLink(what: string, path: string, where: string): LinkError {
  return new LinkError(
    "SYMLINK_REFUSED",
    `Cannot add ${what}: "${printable(path)}" became a symbolic link ${where} while it was copied`,
    { hint: HINT },
  );
}

function changed(what: string, path: string): LinkError {
  return new LinkError("CONFLICT", `Cannot add ${what}: "${printable(path)}" changed while it was copied`, {
    hint: "Add the skill again",
  });
}
