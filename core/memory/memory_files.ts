import { joinPath, logger } from "../base/mod.ts";
import { MEMORY_FILE_MAX_BYTES, MEMORY_FILES_MAX, type MemoryFile } from "./memory_source.ts";
import { readRegularFile } from "./read_regular_file.ts";
import { listStoreEvents, STORE_DATABASE } from "./store_events.ts";

const log = logger("memory");

/**
 * The files memory indexes in an agent's `Agent/` folder: its notes (`memory/*.md`) and its
 * conversations' events (`chats/<folder>/events/<n>.json`, or the rows of the SQLite store's
 * database, `listStoreEvents`). Each folder and file is looked at
 * without following a link (LAY-9): a link, a folder where a file should be, a file over
 * MEMORY_FILE_MAX_BYTES, or names past MEMORY_FILES_MAX are left out, since the harness writes
 * these files and may have planted anything.
 */
export async function listMemoryFiles(
  agentFolder: string,
  options: { storeDatabase?: string } = {},
): Promise<MemoryFile[]> {
  const files: MemoryFile[] = [];
  const add = (path: string, info: Deno.FileInfo): boolean => {
    if (files.length >= MEMORY_FILES_MAX) return false;
    if (!info.isFile || (info.size ?? 0) > MEMORY_FILE_MAX_BYTES) {
      if (info.isFile) log.warn("A file too large for memory is left out", { path, size: info.size });
      return true;
    }
    files.push({ path, mtime: info.mtime?.getTime() ?? 0, size: info.size });
    return true;
  };
  for (const name of await namesIn(joinPath(agentFolder, "memory"))) {
    if (!name.endsWith(".md") || name.startsWith(".")) continue;
    const path = `memory/${name}`;
    const info = await lstatOrUndefined(joinPath(agentFolder, path));
    if (info && !add(path, info)) return files;
  }
  for (const conversation of await namesIn(joinPath(agentFolder, "chats"))) {
    if (conversation.startsWith(".")) continue;
    const events = `chats/${conversation}/events`;
    for (const name of await namesIn(joinPath(agentFolder, events))) {
      if (!/^[0-9]{1,12}\.json$/.test(name)) continue;
      const path = `${events}/${name}`;
      const info = await lstatOrUndefined(joinPath(agentFolder, path));
      if (info && !add(path, info)) return files;
    }
  }
  // The SQLite store's: the bridge's outside the sandbox, or one the harness keeps in chats/.
  for (const database of [options.storeDatabase, joinPath(agentFolder, STORE_DATABASE)]) {
    if (database) files.push(...await listStoreEvents(database, MEMORY_FILES_MAX - files.length));
  }
  return files;
}

/**
 * Reads one listed file's text, or undefined when it is gone, is no longer the regular file that
 * was listed (a link swapped in: what the descriptor opened is checked by its inode, so a link is
 * never read through), or has grown past the cap.
 */
export async function readMemoryFile(agentFolder: string, file: MemoryFile): Promise<string | undefined> {
  const { bytes, changed } = await readRegularFile(joinPath(agentFolder, file.path), MEMORY_FILE_MAX_BYTES);
  if (changed) {
    log.warn("A file of memory changed into something else while read: left out", { path: file.path });
  }
  return bytes && new TextDecoder().decode(bytes);
}

/** The names in a real folder (never one reached through a link); none when it is missing or not a folder. */
async function namesIn(folder: string): Promise<string[]> {
  const info = await lstatOrUndefined(folder);
  if (!info?.isDirectory) return [];
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      names.push(entry.name);
      if (names.length > MEMORY_FILES_MAX) break;
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names.sort();
}

async function lstatOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return undefined;
    throw err;
  }
}
