import { dirname, relative } from "node:path";
import { fileUrlPath } from "../base/mod.ts";
import type { SkillSource } from "./skill_source.ts";

/**
 * A path (or `file://` URL) to a folder inside a repository's work tree names that folder of the
 * repository, as a GitHub folder's page does: the repository is cloned at what it has committed
 * and the folder installed alone. A repository's own folder, a bare repository and a path in no
 * repository are cloned as given, and git says what it thinks of them.
 */
export async function inLocalRepository(source: SkillSource): Promise<SkillSource> {
  if (source.path !== undefined || source.ref !== undefined) return source;
  const url = source.clone.startsWith("file://");
  const path = url ? urlPath(source.clone) : source.clone;
  if (path === undefined || !path.startsWith("/") || await isRepository(path)) return source;
  for (let dir = dirname(path);; dir = dirname(dir)) {
    if (await exists(`${dir}/.git`)) {
      return { ...source, clone: url ? new URL(`file://${dir}`).href : dir, path: relative(dir, path) };
    }
    if (dir === "/") return source;
  }
}

function urlPath(url: string): string | undefined {
  try {
    return fileUrlPath(new URL(url));
  } catch {
    return undefined;
  }
}

/** A work tree's top (holding .git), or a bare repository (HEAD and objects/). */
async function isRepository(path: string): Promise<boolean> {
  return await exists(`${path}/.git`) || (await exists(`${path}/HEAD`) && await exists(`${path}/objects`));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
