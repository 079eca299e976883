import { DatabaseSync } from "node:sqlite";
import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { ConversationEvent, Lease, type StoredEvent } from "./contract.ts";
import type { OpenStore } from "./files_store.ts";
import { checkJudgement, checkTime, type LeaseJudgement, mayTake, sameHolding } from "./lease_rules.ts";
import { parseStoredJson, ToolsFile } from "./stored_json.ts";
import { checkConversationId, checkEventNumber } from "./store_checks.ts";

/** The schema version this driver writes, kept in `PRAGMA user_version`. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  conversation TEXT NOT NULL, n INTEGER NOT NULL, event TEXT NOT NULL,
  PRIMARY KEY (conversation, n)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases (conversation TEXT PRIMARY KEY, lease TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tools (conversation TEXT PRIMARY KEY, tools TEXT NOT NULL) WITHOUT ROWID;
`;

const Text = z.strictObject({ text: z.string() });
const EventRow = z.strictObject({ n: z.number(), event: z.string() });
const Name = z.strictObject({ conversation: z.string() });

/** Options for sqliteStore. */
export interface SqliteStoreOptions {
  /** How long a write waits for another connection's transaction: 5 s unless told. */
  busyTimeoutMs?: number;
}

/**
 * The SQLite driver (node:sqlite) behind the same contract as the files driver: `events` keyed by
 * (conversation, n) so an insert on a taken number is the conflict (TRN-8), the lease row judged
 * and written in one `BEGIN IMMEDIATE` transaction so takers across processes queue (TRN-7), the
 * tool list in its own table (TRN-13). WAL mode, and a busy timeout so writers wait rather than fail.
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): OpenStore {
  const db = openDatabase(path, options.busyTimeoutMs ?? 5_000);
  const where = (conversation: string, what: string) =>
    `the ${what} of conversation "${conversation}" in "${path}"`;
  const readLease = (conversation: string): Lease | undefined => {
    const row = db.prepare("SELECT lease AS text FROM leases WHERE conversation = ?").get(conversation);
    return row === undefined
      ? undefined
      : parseStoredJson(Lease, Text.parse(row).text, where(conversation, "lease"));
  };
  const writeLease = (conversation: string, lease: Lease) =>
    db.prepare("INSERT OR REPLACE INTO leases (conversation, lease) VALUES (?, ?)").run(
      conversation,
      JSON.stringify(lease),
    );
  // Every call answers with a promise, and a SQLite failure (busy past the timeout, disk full) as a LinkError.
  const attempt = <T>(fn: () => T): Promise<T> =>
    Promise.try(fn).catch((err) => {
      if (err instanceof LinkError) throw err;
      throw new LinkError("SERVICE_FAILED", `Cannot use conversation database "${path}": ${err.message}`, {
        hint: "Check that no other program holds the database, and that its disk has room",
        cause: err,
      });
    });
  const immediate = <T>(fn: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      db.exec("COMMIT");
      return result;
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  };
  return {
    append(conversation: string, n: number, event: ConversationEvent): Promise<"ok" | "conflict"> {
      return attempt(() => {
        checkConversationId(conversation);
        checkEventNumber(n);
        const { changes } = db.prepare(
          "INSERT INTO events (conversation, n, event) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        )
          .run(conversation, n, JSON.stringify(event));
        return changes === 1 ? "ok" : "conflict";
      });
    },
    read(conversation: string, from = 1): Promise<StoredEvent[]> {
      return attempt(() => {
        checkConversationId(conversation);
        checkEventNumber(from);
        const rows = db.prepare("SELECT n, event FROM events WHERE conversation = ? AND n >= ? ORDER BY n")
          .all(conversation, from);
        return rows.map((row) => {
          const { n, event } = EventRow.parse(row);
          return { n, event: parseStoredJson(ConversationEvent, event, where(conversation, `event ${n}`)) };
        });
      });
    },
    leaseRead(conversation: string): Promise<Lease | undefined> {
      return attempt(() => {
        checkConversationId(conversation);
        return readLease(conversation);
      });
    },
    leaseTake(conversation: string, lease: Lease, judgement: LeaseJudgement): Promise<Lease | undefined> {
      return attempt(() => {
        checkConversationId(conversation);
        checkJudgement(judgement);
        return immediate(() => {
          if (!mayTake(readLease(conversation), judgement)) return undefined;
          const taken = { ...lease, renewed_at_ms: judgement.nowMs };
          writeLease(conversation, taken);
          return taken;
        });
      });
    },
    leaseRenew(conversation: string, lease: Lease, nowMs: number): Promise<boolean> {
      return attempt(() => {
        checkConversationId(conversation);
        checkTime(nowMs);
        return immediate(() => {
          const current = readLease(conversation);
          if (current === undefined || !sameHolding(current, lease)) return false;
          writeLease(conversation, { ...lease, renewed_at_ms: nowMs });
          return true;
        });
      });
    },
    leaseRelease(conversation: string, lease: Lease): Promise<void> {
      return attempt(() => {
        checkConversationId(conversation);
        immediate(() => {
          const current = readLease(conversation);
          if (current === undefined || !sameHolding(current, lease)) return;
          db.prepare("DELETE FROM leases WHERE conversation = ?").run(conversation);
        });
      });
    },
    toolsRead(conversation: string): Promise<string[] | undefined> {
      return attempt(() => {
        checkConversationId(conversation);
        const row = db.prepare("SELECT tools AS text FROM tools WHERE conversation = ?").get(conversation);
        if (row === undefined) return undefined;
        return parseStoredJson(ToolsFile, Text.parse(row).text, where(conversation, "tool list")).tools;
      });
    },
    toolsWrite(conversation: string, tools: string[]): Promise<void> {
      return attempt(() => {
        checkConversationId(conversation);
        const file: ToolsFile = ToolsFile.parse({ tools });
        db.prepare("INSERT OR REPLACE INTO tools (conversation, tools) VALUES (?, ?)").run(
          conversation,
          JSON.stringify(file),
        );
      });
    },
    list(): Promise<string[]> {
      return attempt(() => {
        const rows = db.prepare(
          "SELECT conversation FROM events UNION SELECT conversation FROM tools UNION SELECT conversation FROM leases",
        ).all();
        return rows.map((row) => Name.parse(row).conversation).sort();
      });
    },
    [Symbol.asyncDispose](): Promise<void> {
      if (db.isOpen) db.close();
      return Promise.resolve();
    },
  };
}

function openDatabase(path: string, busyTimeoutMs: number): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    // Set first, so a second process creating the schema at the same moment waits, not fails.
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    const version = z.strictObject({ user_version: z.number() }).parse(
      db.prepare("PRAGMA user_version").get(),
    );
    if (version.user_version > SCHEMA_VERSION) {
      throw new LinkError(
        "UNSUPPORTED",
        `Cannot open conversation database "${path}": a newer Link made it`,
        {
          hint: "Update Link, then run the command again",
        },
      );
    }
    db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`);
    return db;
  } catch (err) {
    if (db?.isOpen) db.close();
    if (err instanceof LinkError) throw err;
    throw new LinkError("SERVICE_FAILED", `Cannot open conversation database "${path}"`, {
      hint: "Check that its folder exists and that Link may write there",
      cause: err,
    });
  }
}
