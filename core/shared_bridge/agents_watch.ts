import { dirname, resolve } from "node:path";
import { type Clock, logger, SYSTEM_CLOCK } from "../base/mod.ts";

const log = logger("bridges");

/** How long after a change the files are read: an editor's save (truncate, then write) is one change. */
const SETTLE_MS = 100;

/**
 * Watches the shared bridge's list (bridges.json) and its agents' specs (a change of time zone),
 * calling `onChange` once the changes have settled (a file written in steps is read whole). Folders
 * are watched, since files are replaced by a rename; other files in them (the services' logs beside
 * the list) are let pass.
 */
export class AgentsWatch implements AsyncDisposable {
  #list: string;
  #onChange: () => void;
  #files = new Set<string>();
  #watch: { key: string; watcher: Deno.FsWatcher } | undefined;
  #loops = new Set<Promise<void>>();
  #closed = false;
  #clock: Clock;
  #settling: AbortController | undefined;

  constructor(listPath: string, onChange: () => void, options: { clock?: Clock } = {}) {
    this.#list = resolve(listPath);
    this.#onChange = onChange;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
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
        if (event.paths.some((p) => this.#files.has(resolve(p)))) this.#changed();
      }
    })().catch((err) => log.error("The shared bridge stopped watching its agents", { error: err }));
    this.#loops.add(loop);
    void loop.finally(() => this.#loops.delete(loop));
  }

  /** A change seen: `onChange` once no more have come for a moment. */
  #changed(): void {
    if (this.#settling) return;
    const settling = new AbortController();
    this.#settling = settling;
    this.#clock.sleep(SETTLE_MS, settling.signal).then(() => {
      this.#settling = undefined;
      if (!this.#closed) this.#onChange();
    }, () => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    this.#settling?.abort();
    this.#watch?.watcher.close();
    await Promise.all(this.#loops);
  }
}
