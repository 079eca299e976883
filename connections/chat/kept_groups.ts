import { z } from "zod";
import { atomicWrite, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";

const log = logger("chat");

/**
 * A shared chat an allowed person talked to the agent in (SCH-3, SCH-4): the ACP session its
 * messages went to (`telegram:-100…`, `slack:C…`) and its ID as `[access] message` names it.
 */
export const KeptGroup = z.strictObject({ thread: z.string(), chat: z.string() });
export type KeptGroup = z.infer<typeof KeptGroup>;

const KeptGroups = z.array(KeptGroup);

/** The list of kept groups in the connection's folder, which no harness reaches (SCH-4). */
export function groupsPath(stateDir: string): string {
  return joinPath(stateDir, "groups.json");
}

/** The groups kept so far; an unreadable list counts as none, and says so. */
export async function readKeptGroups(stateDir: string): Promise<KeptGroup[]> {
  const text = await readTextIfExists(groupsPath(stateDir));
  if (text === undefined) return [];
  let parsed: ReturnType<typeof KeptGroups.safeParse>;
  try {
    parsed = KeptGroups.safeParse(JSON.parse(text));
  } catch {
    parsed = KeptGroups.safeParse(undefined);
  }
  if (parsed.success) return parsed.data;
  log.warn("Ignoring an unreadable list of kept groups", { path: groupsPath(stateDir) });
  return [];
}

/** Keeps a shared chat an allowed person talked to the agent in, once, written atomically. */
export async function keepGroup(stateDir: string, group: KeptGroup): Promise<void> {
  const groups = await readKeptGroups(stateDir);
  if (groups.some((g) => g.thread === group.thread)) return;
  await atomicWrite(groupsPath(stateDir), JSON.stringify([...groups, group]), { mode: 0o600 });
}

/**
 * The chat an answer nobody waits for on `thread` may go to (SCH-3): its group, when the group is
 * kept and still shared; undefined sends it to the owner's own chat instead.
 */
export async function heldGroup(
  stateDir: string,
  thread: string,
  access: ChatAccess | undefined,
): Promise<KeptGroup | undefined> {
  const group = (await readKeptGroups(stateDir)).find((g) => g.thread === thread);
  return group && access?.chats.has(group.chat) ? group : undefined;
}
