import { atomicWrite, joinPath, LinkError, readTextIfExists } from "../../core/base/mod.ts";

/** The file in the connection's folder holding the first update_id not yet confirmed. */
export function offsetPath(stateDir: string): string {
  return joinPath(stateDir, "offset");
}

/** The offset to ask getUpdates from: what was saved, or 0 (everything Telegram still holds). */
export async function readOffset(stateDir: string): Promise<number> {
  const text = await readTextIfExists(offsetPath(stateDir));
  if (text === undefined) return 0;
  const offset = Number(text.trim());
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new LinkError(
      "CONFIG_INVALID",
      `Cannot read "${offsetPath(stateDir)}": it is not an update offset`,
      {
        hint: `Remove "${offsetPath(stateDir)}"; the messages Telegram still holds are read again`,
      },
    );
  }
  return offset;
}

/** Saves the offset past the updates read, once each is kept (a pairing's, or the inbox's). */
export async function saveOffset(stateDir: string, offset: number): Promise<void> {
  await atomicWrite(offsetPath(stateDir), `${offset}\n`);
}
