import { DatabaseSync } from "node:sqlite";
import { joinPath, logger } from "../base/mod.ts";
// The one file of the store memory reads by, not the store's mod.ts: the memory service's start waits on it.
import { conversationFolder } from "../harness/store/conversation_folder.ts";
import { readRegularFile } from "./read_regular_file.ts";
import { MEMORY_FILE_MAX_BYTES, MEMORY_FILES_MAX, type MemoryFile } from "./memory_source.ts";

const log = logger("memory");

/** Where a harness running the SQLite store itself keeps its conversations, under `Agent/` (TRN-14). */
export const STORE_DATABASE = "chats/conversations.sqlite";
/** The largest conversation database (and its write-ahead log) memory reads. */
export const STORE_DATABASE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The events in a database of the SQLite store, as the files memory indexes
 * (`chats/<folder>/events/<n>.json`, their text given): so a conversation is found whichever
 * store keeps it. A harness may write that database (or swap a link in for it), so it is never
 * opened where it lies: it and its write-ahead log are copied, each read through a descriptor checked to be the
 * regular file that was listed (never a link) and within STORE_DATABASE_MAX_BYTES, into a private
 * folder, and the copy is read with its schema distrusted, from its `events` table alone. Events
 * are kept once written, so each is read again only when new.
 */
export async function listStoreEvents(path: string, limit: number): Promise<MemoryFile[]> {
  // Copied and read again only when the database or its log changed since the last look.
  const seen = `${await stamp(path)} ${await stamp(`${path}-wal`)} ${limit}`;
  const last = lastRead.get(path);
  if (last?.seen === seen) return last.files;
  const files = await readStore(path, limit);
  lastRead.set(path, { seen, files });
  return files;
}

/** The last listing of each database, by what its files looked like then. */
const lastRead = new Map<string, { seen: string; files: MemoryFile[] }>();

async function stamp(path: string): Promise<string> {
  const info = await Deno.lstat(path).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtime?.getTime()}` : "-";
}

async function readStore(path: string, limit: number): Promise<MemoryFile[]> {
  const database = await readChecked(path);
  if (!database) return [];
  const wal = await readChecked(`${path}-wal`);
  const private_ = await Deno.makeTempDir({ prefix: "lnk-memory-store-" });
  try {
    const copy = joinPath(private_, "conversations.sqlite");
    await Deno.writeFile(copy, database, { mode: 0o600 });
    if (wal) await Deno.writeFile(`${copy}-wal`, wal, { mode: 0o600 });
    return readEvents(copy, limit);
  } catch (err) {
    log.warn("The agent's conversation database is unreadable: its conversations are left out of memory", {
      error: err instanceof Error ? err.message : String(err),
    });
    return [];
  } finally {
    await Deno.remove(private_, { recursive: true }).catch(() => {});
  }
}

function readEvents(copy: string, limit: number): MemoryFile[] {
  const db = new DatabaseSync(copy, { allowExtension: false });
  try {
    // Nothing its schema names runs: no function of a view or trigger, no write.
    db.exec("pragma trusted_schema = off");
    db.exec("pragma query_only = on");
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'events'").get();
    if (table === undefined) return [];
    const rows = db.prepare(
      "select conversation, n, event from events where typeof(conversation) = 'text' and typeof(n) = 'integer'" +
        " and typeof(event) = 'text' and length(cast(event as blob)) <= ? order by conversation, n limit ?",
    ).all(MEMORY_FILE_MAX_BYTES, Math.max(0, Math.min(limit, MEMORY_FILES_MAX)));
    const files: MemoryFile[] = [];
    for (const row of rows) {
      const text = String(row.event);
      let folder: string;
      try {
        folder = conversationFolder(String(row.conversation));
      } catch {
        continue;
      }
      const n = Number(row.n);
      if (n < 0 || n > 999_999_999_999) continue;
      files.push({
        path: `chats/${folder}/events/${n}.json`,
        mtime: 0,
        size: new TextEncoder().encode(text).length,
        text,
      });
    }
    return files;
  } finally {
    db.close();
  }
}

/** The file's bytes when it is a regular file within STORE_DATABASE_MAX_BYTES, never through a link. */
async function readChecked(path: string): Promise<Uint8Array | undefined> {
  const size = (await Deno.lstat(path).catch(() => undefined))?.size ?? 0;
  if (size > STORE_DATABASE_MAX_BYTES) {
    log.warn("The agent's conversation database is too large for memory: left out", { path, size });
  }
  return (await readRegularFile(path, STORE_DATABASE_MAX_BYTES)).bytes;
}
