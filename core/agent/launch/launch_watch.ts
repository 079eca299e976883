import { logger } from "../../base/mod.ts";

const log = logger("agent");

/** A watch of the folders a prepared start was read from; closing it stops it. */
export interface LaunchWatch extends AsyncDisposable {
  /** Resolves once it has stopped (at close, or when it cannot go on). */
  readonly stopped: Promise<void>;
}

/**
 * Watches the folders holding what a prepared start was made from (the agent's Config/, its
 * settings' folder, ~/.lnk for machine.toml, the harnesses' grant layers), each on its own level,
 * and calls `changed` at each change in them, so a start is prepared again while the agent sleeps
 * rather than at its next wake. A folder that does not exist is not watched; the wake's own check
 * of what changed still holds for it.
 */
export async function watchLaunchFolders(
  folders: readonly string[],
  changed: () => void,
): Promise<LaunchWatch> {
  const present: string[] = [];
  for (const folder of new Set(folders)) {
    if (await Deno.stat(folder).then((s) => s.isDirectory, () => false)) present.push(folder);
  }
  if (present.length === 0) {
    return {
      stopped: Promise.resolve(),
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
  }
  const watcher = Deno.watchFs(present, { recursive: false });
  const stopped = (async () => {
    try {
      for await (const event of watcher) if (event.kind !== "access") changed();
    } catch (err) {
      log.debug("The watch of the agent's files stopped", { error: err });
    }
  })();
  return {
    stopped,
    async [Symbol.asyncDispose]() {
      try {
        watcher.close();
      } catch { /* closed already */ }
      await stopped;
    },
  };
}
