import { join } from "node:path";
import { atomicWrite, type LinkPaths, lockFile, readTextIfExists } from "../base/mod.ts";
import { holdAgentLock } from "./agent_lock.ts";
import type { AgentContext } from "./context.ts";
import { unbindKey } from "./keyring.ts";
import { layoutOf } from "./layout.ts";
import { loadMachine } from "./machine.ts";
import type { AgentSettings } from "./settings.ts";
import { stopHeld } from "./stop_agent.ts";
import { pickBackend, serviceNames } from "./services/mod.ts";

/** What happens to an agent's files on remove: kept aside (the default) or deleted. */
export type RemoveFiles = "keep" | "delete";

/** What a remove did, for the person to read. */
export interface RemoveResult {
  name: string;
  id: string;
  /** Where the agent's folders were put aside, when kept. */
  keptAt?: string;
  keptUntil?: string;
  /** A Home the person picked, left where it is. */
  homeLeft?: string;
}

/** Record of a removed agent kept aside, so `lnk agent restore` can bring it back. */
export interface RemovedRecord {
  name: string;
  id: string;
  removed: string;
  keep_until: string | null;
}

/**
 * Removes an agent: stops it, unbinds its key, removes its services and settings (BRG-7), and
 * puts its folders aside for `keep_moved` unless told to delete them (CLI-7). A Home the person
 * picked stays where it is. It waits for a start or stop of the agent at work, and frees the name
 * under the agents' lock, so a create of the same name meanwhile sees it taken or free, never half.
 */
export async function removeAgent(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { files?: RemoveFiles } = {},
): Promise<RemoveResult> {
  const { paths } = ctx;
  // The agent's lock first, then the agents': the order every command takes them in.
  using _agent = await holdAgentLock(paths, agent, "remove");
  await stopHeld(ctx, agent);
  using _agents = await lockFile(paths.agentsLock);
  const backend = await pickBackend(paths, ctx.env);
  for (const role of ["agent", "bridge"] as const) await backend.remove(serviceNames(role, agent.id));
  await unbindKey(paths, agent.id);
  const layout = layoutOf(paths, agent);
  const result: RemoveResult = {
    name: agent.name,
    id: agent.id,
    ...(agent.home ? { homeLeft: agent.home } : {}),
  };
  if (options.files === "delete") {
    await Deno.remove(layout.root, { recursive: true }).catch(ignoreMissing);
  } else {
    const aside = join(paths.removed, agent.id);
    const keep = (await loadMachine(paths)).keep_moved;
    const until = keepUntil(keep);
    await Deno.mkdir(aside, { recursive: true, mode: 0o700 });
    await Deno.rename(layout.root, join(aside, "folder")).catch(ignoreMissing);
    await Deno.copyFile(paths.settingsToml(agent.id), join(aside, "settings.toml"));
    const record: RemovedRecord = {
      name: agent.name,
      id: agent.id,
      removed: new Date().toISOString(),
      keep_until: until,
    };
    await atomicWrite(join(aside, "removed.json"), JSON.stringify(record, null, 2));
    Object.assign(result, { keptAt: join(aside, "folder"), keptUntil: until ?? "never" });
  }
  await Deno.remove(paths.agentState(agent.id), { recursive: true }).catch(ignoreMissing);
  await Deno.remove(paths.net(agent.id), { recursive: true }).catch(ignoreMissing);
  await purgeExpired(paths);
  return result;
}

function keepUntil(keep: string): string | null {
  if (keep === "never") return null;
  const n = Number(keep.slice(0, -1));
  const ms = keep.endsWith("h") ? n * 3_600_000 : n * 86_400_000;
  return new Date(Date.now() + ms).toISOString();
}

/** Deletes agents put aside longer ago than they were to be kept. */
export async function purgeExpired(paths: LinkPaths): Promise<void> {
  for (const record of await listRemoved(paths)) {
    if (record.keep_until !== null && Date.parse(record.keep_until) < Date.now()) {
      await Deno.remove(join(paths.removed, record.id), { recursive: true }).catch(ignoreMissing);
    }
  }
}

/** Every removed agent still kept aside, newest first. */
export async function listRemoved(paths: LinkPaths): Promise<RemovedRecord[]> {
  const records: RemovedRecord[] = [];
  try {
    for await (const entry of Deno.readDir(paths.removed)) {
      const text = await readTextIfExists(join(paths.removed, entry.name, "removed.json"));
      if (text) records.push(JSON.parse(text) as RemovedRecord);
    }
  } catch (err) {
    ignoreMissing(err);
  }
  return records.sort((a, b) => b.removed.localeCompare(a.removed));
}

function ignoreMissing(err: unknown): void {
  if (!(err instanceof Deno.errors.NotFound)) throw err;
}
