import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { sqliteStore } from "../../../core/harness/store/mod.ts";
import { MemoryIndex } from "../../../core/memory/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { memoryFolder } from "./_support.ts";

Deno.test("MemoryIndex finds a conversation the SQLite store keeps, and reads it again only as it grows (TRN-14, MEM-1)", async () => {
  await using m = await memoryFolder();
  const database = join(m.root, "state", "chats.sqlite");
  await Deno.mkdir(join(m.root, "state"), { recursive: true });
  await using store = sqliteStore(database);
  await store.append("telegram:42", 1, {
    type: "message",
    text: "My sister Ana plays the cello",
    request: "r1",
    at: 1,
  });
  using index = await MemoryIndex.open(m.index, { ...m.opening, storeDatabase: database });
  assert.deepEqual(await index.refresh(), { files: 1, read: 1, dropped: 0 });
  assert.deepEqual(index.search("cello", { limit: 5 }).map((h) => h.origin), [
    { kind: "chat", conversation: "telegram:42", event: 1 },
  ]);
  assert.deepEqual(await index.refresh(), { files: 1, read: 0, dropped: 0 });
  await store.append("telegram:42", 2, {
    type: "answer",
    turn: "t",
    text: "Noted: Ana, cello",
    answers: [1],
    at: 2,
  });
  assert.deepEqual(await index.refresh(), { files: 2, read: 1, dropped: 0 });
});

Deno.test("attack: a conversation database the harness planted in chats/ is read from a private copy, never through a link, its views and odd rows left out (LAY-9)", async () => {
  await using m = await memoryFolder();
  const planted = join(m.agent, "chats", "conversations.sqlite");
  // A link to a database outside: never followed.
  const outside = join(m.root, "outside.sqlite");
  {
    await using store = sqliteStore(outside);
    await store.append("link:main", 1, { type: "message", text: "the secret outside", request: "r", at: 1 });
  }
  await Deno.symlink(outside, planted);
  {
    using index = await MemoryIndex.open(m.index, m.opening);
    await index.refresh();
    assert.deepEqual(index.search("secret outside", { limit: 5 }), []);
  }
  await Deno.remove(planted);
  // A view named events, and rows of the wrong kinds: nothing of them is read.
  {
    const db = new DatabaseSync(planted);
    db.exec("create table real_events(conversation, n, event)");
    db.exec('insert into real_events values (\'link:main\', 1, \'{"type":"message","text":"from a view"}\')');
    db.exec("create view events as select * from real_events");
    db.close();
  }
  {
    using index = await MemoryIndex.open(m.index, m.opening);
    await index.refresh();
    assert.deepEqual(index.search("view", { limit: 5 }), []);
  }
  await Deno.remove(planted);
  {
    const db = new DatabaseSync(planted);
    db.exec("create table events(conversation, n, event)");
    const said = (text: string) => JSON.stringify({ type: "message", text, request: "r", at: 1 });
    db.prepare("insert into events values (?, ?, ?)").run("link:main", 1n, said("a proper cello"));
    db.prepare("insert into events values (?, ?, ?)").run(
      "link:main",
      2,
      new TextEncoder().encode(said("blob cello")),
    );
    db.prepare("insert into events values (?, ?, ?)").run("link:main", "3", said("text number cello"));
    db.prepare("insert into events values (?, ?, ?)").run("", 4n, said("no conversation cello"));
    db.prepare("insert into events values (?, ?, ?)").run("link:main", 5n, said("cello ".repeat(300_000)));
    db.close();
  }
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  assert.deepEqual(index.search("cello", { limit: 10 }).map((h) => [h.origin, h.text]), [
    [{ kind: "chat", conversation: "link:main", event: 1 }, "a proper cello"],
  ]);
  // Garbage where the database should be: left out, the rest of memory still read.
  await Deno.writeTextFile(planted, "not a database at all ".repeat(100));
  await m.note("people", "Bo plays the cello too");
  assert.deepEqual((await index.refresh()).dropped, 1);
  assert.deepEqual(index.search("cello", { limit: 10 }).map((h) => h.origin.kind), ["note"]);
});

Deno.test('lnk agent memory search finds what was said to an agent whose spec keeps conversations in SQLite (store = "sqlite")', async () => {
  await using model = await serveFakeModel({ defaultText: "Noted, the cello." });
  await using home = await tempHome();
  await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
  await runJson(["agent", "memory", "on", "--json"], home);
  const spec = join(home.paths.agentFolder("main"), "Config", "spec.toml");
  await Deno.writeTextFile(
    spec,
    (await Deno.readTextFile(spec)).replace('store = "files"', 'store = "sqlite"'),
  );
  await runJson(["agent", "start"], home);
  try {
    assert.equal((await runCli(["agent", "chat", "send", "My sister Ana plays the cello"], home)).code, 0);
  } finally {
    await runJson(["agent", "stop"], home);
  }
  const found = await runJson(["agent", "memory", "search", "Ana cello", "--json"], home) as {
    hits: { origin: { kind: string; conversation?: string }; text: string }[];
  };
  assert.deepEqual(
    found.hits.map((h) => [h.origin.kind, h.origin.conversation, h.text]).sort(),
    [["chat", "link:main", "My sister Ana plays the cello"], ["chat", "link:main", "Noted, the cello."]],
  );
});
