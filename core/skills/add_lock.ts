import { dirname } from "node:path";
import { type HeldLock, type LinkPaths, lockFile } from "../base/mod.ts";

/**
 * Holds the one lock of `skill add` on this machine (`~/.lnk/cache/skills.lock`): adds go one at
 * a time, so whatever the clone folder holds once it is taken was left by an add that died (a
 * kill -9 mid-clone) and is removed; add_skill removes such an add's unfinished copy the same
 * way. The kernel lets go of the lock when its holder dies. Makes the clone folder (0700) first.
 */
export async function holdAddLock(paths: LinkPaths): Promise<HeldLock> {
  await Deno.mkdir(paths.skillClones, { recursive: true, mode: 0o700 });
  for (const dir of [dirname(paths.skillClones), paths.skillClones]) await Deno.chmod(dir, 0o700);
  const lock = await lockFile(`${dirname(paths.skillClones)}/skills.lock`);
  try {
    for await (const entry of Deno.readDir(paths.skillClones)) {
      await Deno.remove(`${paths.skillClones}/${entry.name}`, { recursive: true });
    }
    return lock;
  } catch (err) {
    lock.release();
    throw err;
  }
}
