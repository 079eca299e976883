import { z } from "zod";
import { atomicWrite, isTempName, joinPath, logger } from "../../core/base/mod.ts";

const log = logger("telegram");

/**
 * One update kept before its offset is confirmed (persist before acknowledging): the update as
 * Telegram gave it, the answer once it is whole, and the messages it has been sent in so far, so a
 * restart finishes it in place instead of sending it twice.
 */
export const InboxEntry = z.looseObject({
  update: z.unknown(),
  answer: z.string().optional(),
  sent: z.array(z.number().int()).default([]),
});
export type InboxEntry = z.infer<typeof InboxEntry>;

/** The folder of kept updates in the connection's folder. */
export function inboxDir(stateDir: string): string {
  return joinPath(stateDir, "inbox");
}

function entryPath(stateDir: string, updateId: number): string {
  return joinPath(inboxDir(stateDir), `${updateId}.json`);
}

/** Keeps an update (or its progress) so it survives a crash, written whole or not at all. */
export async function keepEntry(stateDir: string, updateId: number, entry: InboxEntry): Promise<void> {
  await atomicWrite(entryPath(stateDir, updateId), JSON.stringify(entry));
}

/** The update is answered: its entry goes. */
export async function finishEntry(stateDir: string, updateId: number): Promise<void> {
  await Deno.remove(entryPath(stateDir, updateId)).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}

/** The updates kept and not yet answered, oldest first. */
export async function pendingEntries(stateDir: string): Promise<{ updateId: number; entry: InboxEntry }[]> {
  const found: { updateId: number; entry: InboxEntry }[] = [];
  try {
    for await (const item of Deno.readDir(inboxDir(stateDir))) {
      const match = /^(\d+)\.json$/.exec(item.name);
      if (!item.isFile || isTempName(item.name) || !match) continue;
      const updateId = Number(match[1]);
      const text = await Deno.readTextFile(entryPath(stateDir, updateId));
      const parsed = InboxEntry.safeParse(parseJson(text));
      if (parsed.success) found.push({ updateId, entry: parsed.data });
      else log.warn("Ignoring an unreadable kept update", { update: updateId });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return found.sort((a, b) => a.updateId - b.updateId);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
