import { join } from "node:path";
import { z } from "zod";
import { type LinkPaths, readTextIfExists } from "../base/mod.ts";
import { processAlive, type ServiceState } from "./services/mod.ts";

/**
 * The agent's harness as its bridge runs it (`~/.lnk/run/lnk-harness-<id>.json`, hidden from
 * every sandbox): written once it is awake, gone when it sleeps or stops, marked when it exited
 * unbidden. `lnk agent status` reads it, since no service of its own runs the harness.
 */
export const HarnessRecord = z.strictObject({
  /** The harness's process: bubblewrap's, or the plain child's with no sandbox. */
  pid: z.number().int().positive(),
  /** The bridge that runs it; a record from another bridge is stale. */
  bridgePid: z.number().int().positive(),
  sandboxed: z.boolean(),
  /** It is the owner's shared harness, serving this agent among others (PRC-2). */
  shared: z.boolean().optional(),
  started: z.string(),
  /** It exited unbidden; the next message starts it again. */
  died: z.strictObject({ code: z.number().int(), at: z.string() }).optional(),
});
export type HarnessRecord = z.infer<typeof HarnessRecord>;

/** Where the bridge keeps its agent's harness record. */
export function harnessRecordPath(paths: LinkPaths, agentId: string): string {
  return join(paths.run, `lnk-harness-${agentId}.json`);
}

/**
 * Writes the record for this user alone, whole or not at all (a temp file renamed over it). Not
 * flushed to disk: it says how a running process stands, and a wake waits on it (PRC-13).
 */
export async function writeHarnessRecord(
  paths: LinkPaths,
  agentId: string,
  record: HarnessRecord,
): Promise<void> {
  await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
  const path = harnessRecordPath(paths, agentId);
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(record), { mode: 0o600, createNew: true });
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}

/** Removes the record: the harness sleeps or stopped. */
export async function removeHarnessRecord(paths: LinkPaths, agentId: string): Promise<void> {
  await Deno.remove(harnessRecordPath(paths, agentId)).catch(() => {});
}

/** The record as written, or undefined when there is none or it cannot be read. */
export async function readHarnessRecord(
  paths: LinkPaths,
  agentId: string,
): Promise<HarnessRecord | undefined> {
  const text = await readTextIfExists(harnessRecordPath(paths, agentId));
  if (!text) return undefined;
  try {
    const parsed = HarnessRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The harness the bridge runs, as a service's state for `lnk agent status`, and why it died. */
export interface HarnessState {
  readonly service: ServiceState;
  readonly reason?: string;
  /** The owner's shared harness serves it (PRC-2). */
  readonly shared?: boolean;
}

/**
 * Where the harness the bridge (`bridgePid`, when known) runs stands: running while its process
 * lives, died when it exited unbidden; undefined when the bridge runs none (asleep, or stopped).
 */
export async function harnessState(
  paths: LinkPaths,
  agentId: string,
  bridgePid: number | undefined,
): Promise<HarnessState | undefined> {
  const record = await readHarnessRecord(paths, agentId);
  if (!record || (bridgePid !== undefined && record.bridgePid !== bridgePid)) return undefined;
  if (record.died) {
    return { service: { running: false, died: true }, reason: `it exited with code ${record.died.code}` };
  }
  // Its command line names the agent (its sockets' folder): a pid reused since is not it.
  if (await processAlive(record.pid, agentId)) {
    return { service: { running: true, pid: record.pid }, shared: record.shared };
  }
  return { service: { running: false, died: true } };
}
