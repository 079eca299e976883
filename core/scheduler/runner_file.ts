import { join } from "node:path";
import { z } from "zod";
import { atomicWrite, LinkError, type LinkPaths, readTextIfExists } from "../base/mod.ts";

/**
 * A runner's agents (U-47): the zone it runs in, and each agent with its way-in socket, through
 * which a firing reaches the agent. The bridge writes it; the runner reads it again each time it
 * changes (PRC-7).
 */
export const RunnerFile = z.strictObject({
  zone: z.string().min(1),
  agents: z.array(z.strictObject({ id: z.string().min(1), way_in: z.string().min(1) })),
});
export type RunnerFile = z.infer<typeof RunnerFile>;

/** One agent on a runner's file. */
export type RunnerAgent = RunnerFile["agents"][number];

/** `~/.lnk/runners/`: the runner files of the shared bridge, one a time zone. */
export function runnersDir(paths: LinkPaths): string {
  return join(paths.lnk, "runners");
}

/**
 * The shared bridge's runner file of a zone, `~/.lnk/runners/<zone>.json`, the zone's "/" and "+"
 * escaped so "Etc/GMT+5" stays one file name.
 */
export function runnerFilePath(paths: LinkPaths, zone: string): string {
  return join(runnersDir(paths), `${encodeURIComponent(zone)}.json`);
}

/** A per-agent bridge's runner file, in the agent's state folder, which no sandbox sees. */
export function agentRunnerFilePath(paths: LinkPaths, agentId: string): string {
  return join(paths.agentState(agentId), "runner.json");
}

/** Reads a runner file; a missing one lists no agent. Throws CONFIG_INVALID naming the file. */
export async function readRunnerFile(path: string, zone: string): Promise<RunnerFile> {
  const text = await readTextIfExists(path);
  if (text === undefined) return { zone, agents: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new LinkError("CONFIG_INVALID", `Cannot read the runner file "${path}": it is not JSON`, {
      cause: err,
    });
  }
  const parsed = RunnerFile.safeParse(raw);
  if (!parsed.success) {
    throw new LinkError(
      "CONFIG_INVALID",
      `Cannot read the runner file "${path}": ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** Writes a runner file atomically, only when it changes; says whether it did. */
export async function writeRunnerFile(path: string, file: RunnerFile): Promise<boolean> {
  const text = `${JSON.stringify(RunnerFile.parse(file), null, 2)}\n`;
  if ((await readTextIfExists(path)) === text) return false;
  await atomicWrite(path, text, { mode: 0o600 });
  return true;
}
