import { join } from "node:path";
import { z } from "zod";
import { atomicWrite, LinkError, type LinkPaths, lockFile, readTextIfExists } from "../../base/mod.ts";

/**
 * The agents the shared bridge carries (`~/.lnk/run/bridges.json`): every agent started while
 * machine.toml says `shared_bridge = true`, each with a token of its start, so a stop and a start
 * the bridge sees as one change still reopen the agent with its new key. `lnk agent start` and
 * `stop` write it; the shared bridge reads it again at each change.
 */
export const BridgesFile = z.strictObject({
  agents: z.record(z.string().regex(/^[a-z0-9]{6,64}$/), z.strictObject({ start: z.string().min(1) }))
    .default({}),
});
export type BridgesFile = z.infer<typeof BridgesFile>;

/** Where the shared bridge's agents are listed. */
export function bridgesFilePath(paths: LinkPaths): string {
  return join(paths.run, "bridges.json");
}

/** The agents on the shared bridge; a missing file lists none. Throws CONFIG_INVALID naming the file. */
export async function readBridgesFile(paths: LinkPaths): Promise<BridgesFile> {
  const path = bridgesFilePath(paths);
  const text = await readTextIfExists(path);
  if (text === undefined || !text.trim()) return { agents: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new LinkError("CONFIG_INVALID", `Cannot read "${path}": it is not JSON`, {
      hint: "Remove it, then start your agents again with `lnk agent start`",
      cause: err,
    });
  }
  const parsed = BridgesFile.safeParse(raw);
  if (!parsed.success) {
    throw new LinkError("CONFIG_INVALID", `Cannot read "${path}": ${z.prettifyError(parsed.error)}`, {
      hint: "Remove it, then start your agents again with `lnk agent start`",
    });
  }
  return parsed.data;
}

/** Puts the agent on the shared bridge for a new start; returns that start's token. */
export async function putOnSharedBridge(paths: LinkPaths, agentId: string): Promise<string> {
  const start = crypto.randomUUID();
  await changeBridgesFile(paths, (file) => ({ agents: { ...file.agents, [agentId]: { start } } }));
  return start;
}

/** Takes the agent off the shared bridge; says whether it was on it. */
export async function takeOffSharedBridge(paths: LinkPaths, agentId: string): Promise<boolean> {
  let was = false;
  await changeBridgesFile(paths, (file) => {
    was = agentId in file.agents;
    const { [agentId]: _gone, ...rest } = file.agents;
    return { agents: rest };
  });
  return was;
}

/** Whether the agent is on the shared bridge; an unreadable file says no. */
export async function onSharedBridge(paths: LinkPaths, agentId: string): Promise<boolean> {
  const file = await readBridgesFile(paths).catch(() => undefined);
  return file !== undefined && agentId in file.agents;
}

/** Reads, changes and writes the file under its lock, so two commands at once lose nothing. */
async function changeBridgesFile(
  paths: LinkPaths,
  change: (file: BridgesFile) => BridgesFile,
): Promise<void> {
  await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
  const path = bridgesFilePath(paths);
  using _lock = await lockFile(`${path}.lock`);
  const before = await readTextIfExists(path);
  const current = await readBridgesFile(paths).catch(() => ({ agents: {} }));
  const text = `${JSON.stringify(change(current), null, 2)}\n`;
  if (text !== before) await atomicWrite(path, text, { mode: 0o600 });
}
