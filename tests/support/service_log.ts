import { join } from "node:path";
import type { TempHome } from "./temp_home.ts";

/** One JSON log line of a service. */
export type LogEntry = Record<string, unknown> & { msg?: string; level?: string };

/** The log file of an agent's service under the detached backend. */
export function serviceLog(home: TempHome, role: "agent" | "bridge", id: string): string {
  return join(home.paths.run, `lnk-${role}-${id}.log`);
}

function entries(text: string): LogEntry[] {
  return text.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as LogEntry];
    } catch {
      return [];
    }
  });
}

/**
 * Resolves once the log holds `count` entries matching, waiting on the file's change events (no
 * timer): how a test waits for what a service in another process did.
 */
export async function waitForLog(
  path: string,
  match: (entry: LogEntry) => boolean,
  count = 1,
): Promise<LogEntry[]> {
  const watcher = Deno.watchFs(path);
  const events = watcher[Symbol.asyncIterator]();
  try {
    for (;;) {
      const found = entries(await Deno.readTextFile(path)).filter(match);
      if (found.length >= count) return found;
      await events.next();
    }
  } finally {
    watcher.close();
  }
}

/** The entries of a log matching, now. */
export async function logEntries(path: string, match: (entry: LogEntry) => boolean): Promise<LogEntry[]> {
  return entries(await Deno.readTextFile(path)).filter(match);
}
