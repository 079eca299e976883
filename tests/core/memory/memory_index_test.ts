import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { MemoryIndex, searchMemory } from "../../../core/memory/mod.ts";
import { fakeVector } from "../../fakes/fake_embeddings.ts";
import { memoryFolder } from "./_support.ts";

Deno.test("MemoryIndex finds a note by its words, saying its note and line, and a conversation by its event", async () => {
  await using m = await memoryFolder();
  await m.note("people", "# People\n\nBo lives in Lisbon and likes sardines.\n\nAna plays the cello.\n");
  await m.said("link:main", 1, { type: "message", text: "Book a table for Friday", request: "r1" });
  await m.said("link:main", 3, {
    type: "answer",
    turn: "t",
    text: "I booked the table at Casa Bo",
    answers: [1],
  });
  await m.said("link:main", 2, { type: "turn", turn: "t", answers: [1] });
  using index = await MemoryIndex.open(m.index, m.opening);
  assert.deepEqual(await index.refresh(), { files: 4, read: 4, dropped: 0 });
  const found = index.search("where does Bo live? Lisbon", { limit: 5 });
  assert.deepEqual(found[0]!.origin, { kind: "note", note: "people", line: 3 });
  assert.equal(found[0]!.text, "Bo lives in Lisbon and likes sardines.");
  assert.deepEqual(found[0]!.by, ["words"]);
  const table = index.search("table", { limit: 5 });
  assert.deepEqual(
    table.map((h) => h.origin).sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1),
    [
      { kind: "chat", conversation: "link:main", event: 1 },
      { kind: "chat", conversation: "link:main", event: 3 },
    ],
  );
  assert.equal((await Deno.stat(m.index)).mode! & 0o777, 0o600);
});

Deno.test("MemoryIndex.refresh reads a changed note again and drops a removed one", async () => {
  await using m = await memoryFolder();
  await m.note("plan", "Fly to Oslo");
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  await m.note("plan", "Take the train to Bergen, a longer note");
  assert.deepEqual(await index.refresh(), { files: 1, read: 1, dropped: 0 });
  assert.deepEqual(index.search("Oslo", { limit: 5 }), []);
  assert.equal(index.search("Bergen", { limit: 5 }).length, 1);
  await Deno.remove(join(m.agent, "memory", "plan.md"));
  assert.deepEqual(await index.refresh(), { files: 0, read: 0, dropped: 1 });
  assert.deepEqual(index.counts(), { chunks: 0, embedded: 0 });
});

Deno.test("MemoryIndex.open makes a corrupt index again from the files", async () => {
  await using m = await memoryFolder();
  await m.note("people", "Bo lives in Lisbon");
  await Deno.mkdir(join(m.root, "state", "memory"), { recursive: true });
  await Deno.writeTextFile(m.index, "this is not a database, it is garbage ".repeat(200));
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  assert.equal(index.search("Lisbon", { limit: 5 }).length, 1);
});

Deno.test("MemoryIndex never reads through a link the harness planted, nor a file over its cap (LAY-9)", async () => {
  await using m = await memoryFolder();
  const secret = join(m.root, "secret.md");
  await Deno.writeTextFile(secret, "the password is hunter2");
  await Deno.symlink(secret, join(m.agent, "memory", "stolen.md"));
  await Deno.symlink(m.root, join(m.agent, "chats", "outside"));
  await Deno.writeTextFile(join(m.agent, "memory", "huge.md"), "hunter2 ".repeat(200_000));
  await m.note("real", "nothing secret here");
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  assert.deepEqual(index.search("hunter2 password", { limit: 5 }), []);
  assert.equal(index.search("secret", { limit: 5 }).length, 1);
});

Deno.test("MemoryIndex.search takes FTS5's own syntax in a query as words", async () => {
  await using m = await memoryFolder();
  await m.note("n", "NEAR the column of text");
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  assert.equal(index.search('text:"* NEAR( OR AND', { limit: 5 }).length, 1);
  assert.deepEqual(index.search("*** ((( )))", { limit: 5 }), []);
});

Deno.test("searchMemory without embeddings searches by words and says so", async () => {
  await using m = await memoryFolder();
  await m.note("people", "Bo lives in Lisbon");
  using index = await MemoryIndex.open(m.index, m.opening);
  const found = await searchMemory(index, "Lisbon");
  assert.equal(found.by, "words");
  assert.match(found.note!, /no embeddings model/);
  assert.equal(found.hits.length, 1);
});

Deno.test("MemoryIndex.embedPending embeds a long history a share at a time, what has no vector still found by words", async () => {
  await using m = await memoryFolder();
  const note = Array.from({ length: 100 }, (_, i) => `Paragraph ${i} about the cello`).join("\n\n");
  await m.note("long", note);
  using index = await MemoryIndex.open(m.index, m.opening);
  await index.refresh();
  // The provider's side, in process: the fake provider's own vectors, one per text.
  const embedder = {
    model: "e",
    embed: (texts: readonly string[]) => Promise.resolve(texts.map(fakeVector)),
  };
  assert.equal(await index.embedPending(embedder, { max: 40 }), 64);
  assert.deepEqual(index.counts("e"), { chunks: 100, embedded: 64 });
  assert.equal(index.search("Paragraph 99", { limit: 1 })[0]!.text, "Paragraph 99 about the cello");
  assert.equal(await index.embedPending(embedder), 36);
  assert.deepEqual(index.counts("e"), { chunks: 100, embedded: 100 });
});

Deno.test("MemoryIndex loads sqlite-vec from a copy in the machine's cache named by its hash, as a compiled lnk must (its npm file is in the binary)", async () => {
  await using m = await memoryFolder();
  await m.note("people", "Bo lives in Lisbon");
  const { getLoadablePath } = await import("sqlite-vec");
  const npm = await Deno.readFile(getLoadablePath());
  {
    using index = await MemoryIndex.open(m.index, m.opening);
    assert.deepEqual(index.vec, { loaded: true });
  }
  const folders = [...Deno.readDirSync(join(m.opening.cache, "sqlite-vec"))].map((e) => e.name);
  assert.equal(folders.length, 1);
  assert.match(folders[0]!, /^[0-9a-f]{16}$/);
  const copy = join(m.opening.cache, "sqlite-vec", folders[0]!, basename(getLoadablePath()));
  assert.deepEqual(await Deno.readFile(copy), npm);
  assert.equal((await Deno.stat(copy)).mode! & 0o777, 0o600);
  // A copy someone changed is written again before it is loaded.
  await Deno.writeFile(copy, new TextEncoder().encode("tampered"));
  using again = await MemoryIndex.open(m.index, { ...m.opening, cache: m.opening.cache });
  assert.deepEqual(again.vec, { loaded: true });
  assert.deepEqual(await Deno.readFile(copy), npm);
});

Deno.test("MemoryIndex without a sqlite-vec that loads searches by words alone, saying why, and asks no embeddings", async () => {
  await using m = await memoryFolder();
  await m.note("people", "Bo lives in Lisbon");
  const broken = join(m.root, "vec0.so");
  await Deno.writeTextFile(broken, "not a shared library");
  using index = await MemoryIndex.open(m.index, { ...m.opening, vecSource: broken });
  assert.equal(index.vec.loaded, false);
  assert.match(!index.vec.loaded ? index.vec.why : "", /does not load on this machine/);
  let asked = 0;
  const embedder = {
    model: "e",
    embed: (texts: readonly string[]) => {
      asked++;
      return Promise.resolve(texts.map(fakeVector));
    },
  };
  const found = await searchMemory(index, "Lisbon", { embedder });
  assert.deepEqual([found.by, found.hits.length, asked], ["words", 1, 0]);
  assert.match(found.note!, /^Searched by words alone: sqlite-vec's extension does not load/);
  using missing = await MemoryIndex.open(m.index, { ...m.opening, vecSource: join(m.root, "none.so") });
  assert.match(!missing.vec.loaded ? missing.vec.why : "", /cannot be read/);
});

Deno.test("MemoryIndex copied whole with its agent's files to another place is used there as it is: files whose times changed and words did not keep their vectors, nothing embedded again (MEM-8)", async () => {
  await using m = await memoryFolder();
  await m.note("people", "Bo lives in Lisbon\n\nAna plays the cello");
  let asked = 0;
  const embedder = {
    model: "e",
    embed: (texts: readonly string[]) => {
      asked += texts.length;
      return Promise.resolve(texts.map(fakeVector));
    },
  };
  {
    using index = await MemoryIndex.open(m.index, m.opening);
    await index.refresh();
    assert.equal(await index.embedPending(embedder), 2);
  }
  // Elsewhere: the same files, written anew (new times), and the index file as it was.
  await using there = await memoryFolder();
  await Deno.mkdir(join(there.root, "state", "memory"), { recursive: true });
  await Deno.copyFile(m.index, there.index);
  await there.note("people", "Bo lives in Lisbon\n\nAna plays the cello");
  await there.note("new", "Written after the copy");
  using index = await MemoryIndex.open(there.index, there.opening);
  assert.deepEqual(await index.refresh(), { files: 2, read: 1, dropped: 0 });
  assert.deepEqual(index.counts("e"), { chunks: 3, embedded: 2 });
  assert.equal(await index.embedPending(embedder), 1);
  assert.equal(asked, 3);
  const [values] = await embedder.embed(["Ana plays the cello"]);
  const hits = index.search("cello", { limit: 1, vector: { model: "e", values: values! } });
  assert.deepEqual(hits.map((h) => [h.text, h.by]), [["Ana plays the cello", ["words", "meaning"]]]);
});
