import { dirname, resolve } from "node:path";
import { logger } from "../../../base/mod.ts";

const log = logger("bridges");

/**
 * Watches the shared bridge's list (bridges.json) and its agents' specs (a change of time zone),
 * calling `onChange` at a change of any of them. Folders are watched, since files are replaced by
 * a rename; other files in them (the services' logs beside the list) are let pass.
 */
export class AgentsWatch implements AsyncDisposable {
  #list: string;
  #onChange: () => void;
  #files = new Set<string>();
  #watch: { key: string; watcher: Deno.FsWatcher } | undefined;
  #loops = new Set<Promise<void>>();
  #closed = false;

  constructor(listPath: string, onChange: () => void) {
    this.#list = resolve(listPath);
    this.#onChange = onChange;
  }

  /** Watches the list and these specs from now on; the watch is made again only when their folders change. */
  follow(specPaths: readonly string[]): void {
    if (this.#closed) return;
    this.#files = new Set([this.#list, ...specPaths.map((p) => resolve(p))]);
    const dirs = [...new Set([...this.#files].map((f) => dirname(f)))].sort();
    const key = dirs.join("\0");
    if (this.#watch?.key === key) return;
    this.#watch?.watcher.close();
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(dirs, { recursive: false });
    } catch (err) {
      log.warn("Cannot watch every agent's spec: a change of time zone waits for the next start", {
        error: err,
      });
      watcher = Deno.watchFs(dirname(this.#list), { recursive: false });
    }
    this.#watch = { key, watcher };
    const loop = (async () => {
      for await (const event of watcher) {
        if (event.paths.some((p) => this.#files.has(resolve(p)))) this.#onChange();
      }
    })().catch((err) => log.error("The shared bridge stopped watching its agents", { error: err }));
    this.#loops.add(loop);
    void loop.finally(() => this.#loops.delete(loop));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    this.#watch?.watcher.close();
    await Promise.all(this.#loops);
  }
}
