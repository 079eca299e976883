import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sqliteStore } from "../../../../core/harness/store/mod.ts";
import { leaseOf, message } from "../../../support/store_contract.ts";

async function tempDb(): Promise<{ path: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-sqlite-" });
  return { path: join(dir, "chats.db"), [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

function withDb<T>(path: string, fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

Deno.test("sqliteStore() uses WAL mode and marks its schema version", async () => {
  await using file = await tempDb();
  await using store = sqliteStore(file.path);
  await store.append("link:main", 1, message("hi"));
  withDb(file.path, (db) => {
    assert.deepEqual({ ...db.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
    assert.deepEqual({ ...db.prepare("PRAGMA user_version").get() }, { user_version: 1 });
  });
});

Deno.test("sqliteStore() waits for another writer up to its busy timeout, then fails with SERVICE_FAILED", async () => {
  await using file = await tempDb();
  await using store = sqliteStore(file.path, { busyTimeoutMs: 20 });
  const other = new DatabaseSync(file.path);
  try {
    other.exec("BEGIN IMMEDIATE");
    await assert.rejects(store.append("link:main", 1, message("hi")), {
      name: "LinkError",
      code: "SERVICE_FAILED",
    });
    await assert.rejects(
      store.leaseTake("link:main", leaseOf(1, "t1"), { lapseMs: 60_000, nowMs: 0 }),
      { name: "LinkError", code: "SERVICE_FAILED" },
    );
    other.exec("COMMIT");
    assert.equal(await store.append("link:main", 1, message("hi")), "ok");
  } finally {
    other.close();
  }
});

Deno.test("sqliteStore() ignores a lapse written into the lease row by hand (TRN-3)", async () => {
  await using file = await tempDb();
  await using store = sqliteStore(file.path);
  const forged = { ...leaseOf(1, "t1", 1_000), lapse: "1000d", lapse_ms: 86_400_000_000 };
  withDb(file.path, (db) => {
    db.prepare("INSERT INTO leases (conversation, lease) VALUES (?, ?)").run(
      "link:main",
      JSON.stringify(forged),
    );
  });
  assert.equal(
    await store.leaseTake("link:main", leaseOf(2, "t2"), { lapseMs: 60_000, nowMs: 60_999 }),
    undefined,
  );
  assert.deepEqual(
    await store.leaseTake("link:main", leaseOf(2, "t2"), { lapseMs: 60_000, nowMs: 61_000 }),
    leaseOf(2, "t2", 61_000),
  );
});

Deno.test("sqliteStore() checks JSON read back from its columns: CONFIG_INVALID", async () => {
  await using file = await tempDb();
  await using store = sqliteStore(file.path);
  await store.append("link:main", 1, message("hi"));
  await store.toolsWrite("link:main", ["web"]);
  withDb(file.path, (db) => {
    db.exec(`UPDATE events SET event = '{"type":"message"}'`);
    db.exec(`UPDATE tools SET tools = '["web"]'`);
    db.exec(`INSERT INTO leases VALUES ('link:main', 'not json')`);
  });
  await assert.rejects(store.read("link:main"), { name: "LinkError", code: "CONFIG_INVALID" });
  await assert.rejects(store.toolsRead("link:main"), { name: "LinkError", code: "CONFIG_INVALID" });
  await assert.rejects(store.leaseRead("link:main"), { name: "LinkError", code: "CONFIG_INVALID" });
});

Deno.test("sqliteStore() refuses a database made by a newer Link, and one it cannot open", async () => {
  await using file = await tempDb();
  withDb(file.path, (db) => db.exec("PRAGMA user_version = 99"));
  assert.throws(() => sqliteStore(file.path), { name: "LinkError", code: "UNSUPPORTED" });
  assert.throws(() => sqliteStore(join(file.path, "..", "missing", "x.db")), {
    name: "LinkError",
    code: "SERVICE_FAILED",
  });
});

Deno.test("sqliteStore() keeps its data after closing and opening again", async () => {
  await using file = await tempDb();
  {
    await using store = sqliteStore(file.path);
    await store.append("link:main", 1, message("hi"));
    await store.toolsWrite("link:main", ["web"]);
  }
  await using again = sqliteStore(file.path);
  assert.deepEqual(await again.read("link:main"), [{ n: 1, event: message("hi") }]);
  assert.deepEqual(await again.toolsRead("link:main"), ["web"]);
});
