import { isTempName, joinPath } from "../../base/mod.ts";

/**
 * How old a temp file must be before it is judged left by a write killed mid-way: a live write
 * renames or links its temp file within moments, so one this old has no writer.
 */
export const STALE_TEMP_MS = 10 * 60_000;

/**
 * Removes the temp files of `names` (atomicWrite's and the event writer's `.<uuid>.tmp`) in `dir`
 * older than STALE_TEMP_MS at `nowMs`. Never read as an event or a lease, they are only clutter:
 * a store that cannot remove one (mounted read-only) leaves it.
 */
export async function removeStaleTemps(dir: string, names: readonly string[], nowMs: number): Promise<void> {
  for (const name of names.filter(isTempName)) {
    const path = joinPath(dir, name);
    try {
      const info = await Deno.lstat(path);
      if (!info.isFile || (info.mtime?.getTime() ?? nowMs) > nowMs - STALE_TEMP_MS) continue;
      await Deno.remove(path);
    } catch {
      // Gone meanwhile, or not ours to remove: either way nothing reads it.
    }
  }
}

/** The names in a folder, or none when it does not exist. */
export async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}
