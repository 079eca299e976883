import assert from "node:assert/strict";
import { join } from "node:path";
import {
  conversationFolder,
  conversationFromFolder,
  filesStore,
} from "../../../../core/harness/store/mod.ts";
import { leaseOf, message } from "../../../support/store_contract.ts";

async function tempChats(): Promise<{ root: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-files-" });
  return { root: join(dir, "chats"), [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("conversationFolder() maps ids to safe folder names and back", () => {
  const cases: [string, string][] = [
    ["link:main", "link+main"],
    ["telegram:-1001234", "telegram+-1001234"],
    ["slack:T01AB/C02CD", "slack+^t01^a^b%2F^c02^c^d"],
    ["Main", "^main"],
    ["main", "main"],
    [".hidden", "%2Ehidden"],
    ["..", "%2E."],
    ["a.b", "a.b"],
    ["a+b%c^d e", "a%2Bb%25c%5Ed%20e"],
    ["grüße", "gr%C3%BC%C3%9Fe"],
  ];
  for (const [id, folder] of cases) {
    assert.equal(conversationFolder(id), folder, id);
    assert.equal(conversationFromFolder(folder), id, folder);
  }
});

Deno.test("conversationFromFolder() refuses names the encoding never makes", () => {
  for (const name of ["a:b", "A", "%2e", "%41", "^A", "^", "%C3", "%", ".x", ""]) {
    assert.equal(conversationFromFolder(name), undefined, name);
  }
});

Deno.test("conversationFolder() refuses an empty id and one too long for a folder name", () => {
  assert.throws(() => conversationFolder(""), { name: "LinkError", code: "USAGE" });
  assert.throws(() => conversationFolder("漢".repeat(30)), { name: "LinkError", code: "USAGE" });
  assert.equal(conversationFolder("a".repeat(255)).length, 255);
});

Deno.test("filesStore() keeps events/<n>.json, turn.json and tools.json in the conversation's folder (TRN-1, TRN-13, U-61)", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  await store.append("link:main", 1, message("hi"));
  await store.append("link:main", 2, message("again"));
  await store.leaseTake("link:main", leaseOf(7, "t1"), { lapseMs: 60_000, nowMs: 5 });
  await store.toolsWrite("link:main", ["web"]);
  const folder = join(chats.root, "link+main");
  assert.deepEqual(await names(chats.root), ["link+main"]);
  assert.deepEqual(await names(folder), ["events", "tools.json", "turn.json", "turn.lock"]);
  assert.deepEqual(await names(join(folder, "events")), ["1.json", "2.json"], "no temp file is left");
  assert.deepEqual(JSON.parse(await Deno.readTextFile(join(folder, "events", "1.json"))), message("hi"));
  assert.deepEqual(JSON.parse(await Deno.readTextFile(join(folder, "turn.json"))), leaseOf(7, "t1", 5));
  assert.deepEqual(JSON.parse(await Deno.readTextFile(join(folder, "tools.json"))), { tools: ["web"] });
});

Deno.test("filesStore() ignores a lapse written into turn.json by hand (TRN-3)", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  const folder = join(chats.root, "link+main");
  await Deno.mkdir(folder, { recursive: true });
  const forged = { ...leaseOf(1, "t1", 1_000), lapse: "1000d", lapse_ms: 86_400_000_000 };
  await Deno.writeTextFile(join(folder, "turn.json"), JSON.stringify(forged));
  assert.equal(
    await store.leaseTake("link:main", leaseOf(2, "t2"), { lapseMs: 60_000, nowMs: 60_999 }),
    undefined,
  );
  assert.deepEqual(
    await store.leaseTake("link:main", leaseOf(2, "t2"), { lapseMs: 60_000, nowMs: 61_000 }),
    leaseOf(2, "t2", 61_000),
  );
});

Deno.test("filesStore() reads an event file changed by hand as CONFIG_INVALID naming it", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  await store.append("link:main", 1, message("hi"));
  const path = join(chats.root, "link+main", "events", "1.json");
  await Deno.writeTextFile(path, JSON.stringify({ type: "message", text: 3 }));
  const err = await store.read("link:main").catch((e) => e);
  assert.equal(err.code, "CONFIG_INVALID");
  assert.match(err.message, /1\.json/);
  await Deno.writeTextFile(join(chats.root, "link+main", "turn.json"), "{");
  await assert.rejects(store.leaseRead("link:main"), { name: "LinkError", code: "CONFIG_INVALID" });
});

Deno.test("filesStore() read() skips files that are not numbered events", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  await store.append("link:main", 2, message("two"));
  const events = join(chats.root, "link+main", "events");
  for (const name of [".tmp.json", "01.json", "x.json", "3.json.tmp"]) {
    await Deno.writeTextFile(join(events, name), "{");
  }
  await Deno.mkdir(join(chats.root, "not a conversation"));
  assert.deepEqual(await store.read("link:main"), [{ n: 2, event: message("two") }]);
  assert.deepEqual(await store.list(), ["link:main"]);
});

Deno.test("filesStore() list() of a root that does not exist yet is empty", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  assert.deepEqual(await store.list(), []);
  assert.equal(await store.toolsRead("link:main"), undefined);
  assert.deepEqual(await names(join(chats.root, "..")), [], "reading creates nothing");
});

Deno.test("filesStore() never reads a write killed mid-way as an event, and clears its temp files once stale (item 13)", async () => {
  await using chats = await tempChats();
  await using store = filesStore(chats.root);
  await store.append("link:main", 1, message("one"));
  const folder = join(chats.root, "link+main");
  const events = join(folder, "events");
  // What a write killed mid-way leaves: half an event, and half a turn.json, each in its temp file.
  const stale = [join(events, `.${crypto.randomUUID()}.tmp`), join(folder, `.${crypto.randomUUID()}.tmp`)];
  const fresh = join(events, `.${crypto.randomUUID()}.tmp`);
  for (const path of [...stale, fresh]) await Deno.writeTextFile(path, '{"type":"mess');
  const longAgo = new Date(Date.now() - 11 * 60_000);
  for (const path of stale) await Deno.utime(path, longAgo, longAgo);
  assert.deepEqual(await store.read("link:main"), [{ n: 1, event: message("one") }]);
  assert.ok(await store.leaseTake("link:main", leaseOf(7, "t1"), { lapseMs: 60_000, nowMs: Date.now() }));
  // A temp file this young may be a write under way: it stays; the stale ones are gone.
  assert.deepEqual(await names(events), [fresh.slice(events.length + 1), "1.json"]);
  assert.deepEqual(await names(folder), ["events", "turn.json", "turn.lock"]);
});
