import { atomicWrite, type Clock, isTempName, joinPath, readTextIfExists, sha256Hex } from "../base/mod.ts";

/** How long a taken post's id is kept, so a replay within it is refused (WHK-6). */
export const KEEP_IDS_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The ids of the posts a hook's harness took, in `<hook folder>/seen/`: one file an id (named by
 * its SHA-256, so any id is a safe name) holding when it was taken. Kept 30 days, then pruned.
 */
export class SeenPosts {
  readonly #dir: string;
  readonly #clock: Clock;

  constructor(hookDir: string, clock: Clock) {
    this.#dir = joinPath(hookDir, "seen");
    this.#clock = clock;
  }

  /** Whether a post with this id was taken within the last 30 days. */
  async seen(id: string): Promise<boolean> {
    const text = await readTextIfExists(this.#file(id));
    if (text === undefined) return false;
    const at = Date.parse(text.trim());
    return Number.isFinite(at) && this.#clock.now() - at < KEEP_IDS_MS;
  }

  /** Records that the harness took the post: written before the poster is told 202. */
  async take(id: string): Promise<void> {
    await Deno.mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await atomicWrite(this.#file(id), `${new Date(this.#clock.now()).toISOString()}\n`, { mode: 0o600 });
  }

  /** Removes the ids older than 30 days; resolves with how many went. */
  async prune(): Promise<number> {
    let pruned = 0;
    try {
      for await (const entry of Deno.readDir(this.#dir)) {
        if (!entry.isFile || isTempName(entry.name)) continue;
        const path = joinPath(this.#dir, entry.name);
        const at = Date.parse((await readTextIfExists(path))?.trim() ?? "");
        if (Number.isFinite(at) && this.#clock.now() - at < KEEP_IDS_MS) continue;
        await Deno.remove(path).catch(() => {});
        pruned++;
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return pruned;
  }

  #file(id: string): string {
    return joinPath(this.#dir, sha256Hex(id));
  }
}
