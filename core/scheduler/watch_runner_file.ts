import { dirname, resolve } from "node:path";
import { logger } from "../base/mod.ts";
import { readRunnerFile, type RunnerFile } from "./runner_file.ts";

const log = logger("runner");

/**
 * Reads the runner's file now and again each time it changes (PRC-7), handing each reading to
 * `onRead`. The folder is watched, since the bridge replaces the file by a rename. A file that
 * cannot be read is logged and the last reading kept.
 */
export async function watchRunnerFile(
  path: string,
  zone: string,
  onRead: (file: RunnerFile) => void,
): Promise<AsyncDisposable> {
  const full = resolve(path);
  await Deno.mkdir(dirname(full), { recursive: true, mode: 0o700 });
  const watcher = Deno.watchFs(dirname(full), { recursive: false });
  const read = async () => {
    try {
      onRead(await readRunnerFile(full, zone));
    } catch (err) {
      log.error("Cannot read the runner's file: its agents stay as they were", {
        zone,
        path: full,
        error: err,
      });
    }
  };
  await read();
  const watching = (async () => {
    for await (const event of watcher) {
      if (event.paths.some((p) => resolve(p) === full)) await read();
    }
  })().catch((err) => log.error("The runner stopped watching its file", { zone, error: err }));
  return {
    async [Symbol.asyncDispose]() {
      watcher.close();
      await watching;
    },
  };
}
