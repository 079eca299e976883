import { LinkError } from "../core/base/mod.ts";
import { cPath, errno, libc } from "./libc.ts";
import { closeFd, fdPath, openEntry } from "./walk_no_follow.ts";

const RENAME_NOREPLACE = 1;
const EEXIST = 17;
const ENOTEMPTY = 39;
const ENOSYS = 38;
const EINVAL = 22;

/**
 * Renames `from` to `to` within the folder open at `dir`, never replacing what is at `to`
 * (renameat2 with RENAME_NOREPLACE): "exists" when something is. Neither name is followed if it
 * is a link, so the rename stays in that folder whatever its path now leads to.
 */
export function renameNoReplace(dir: number, from: string, to: string): "renamed" | "exists" {
  const call = libc().renameat2;
  if (call) {
    if (call(dir, cPath(from), dir, cPath(to), RENAME_NOREPLACE) === 0) return "renamed";
    const code = errno();
    if (code === EEXIST || code === ENOTEMPTY) return "exists";
    if (code !== ENOSYS && code !== EINVAL) {
      throw new LinkError("INTERNAL", `Cannot rename "${from}" to "${to}" (errno ${code})`);
    }
  }
  // No renameat2 (an old C library, a file system without it): rename(2) replaces only an empty folder.
  const there = openEntry(dir, to);
  if (there !== undefined) {
    closeFd(there);
    return "exists";
  }
  Deno.renameSync(fdPath(dir, from), fdPath(dir, to));
  return "renamed";
}
