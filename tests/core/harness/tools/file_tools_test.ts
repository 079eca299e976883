import assert from "node:assert/strict";
import { join } from "node:path";
import {
  editFileTool,
  listFilesTool,
  readFileTool,
  writeFileTool,
} from "../../../../core/harness/tools/mod.ts";
import { call, firstLine, toolFixture } from "../../../support/tool_fixture.ts";

const read = readFileTool();
const write = writeFileTool();
const edit = editFileTool();
const list = listFilesTool();
const LAY5 = { files: { ".": "read", work: "write", instructions: "read", skills: "read", chats: "read" } };

Deno.test("write_file writes work/ and refuses instructions/ when instructions is read (LAY-5, LAY-6)", async () => {
  await using fx = await toolFixture();
  const ctx = fx.ctx(LAY5);
  assert.deepEqual(await call(write, { path: "work/x.md", content: "made" }, ctx), {
    content: 'Wrote 4 bytes to "work/x.md"',
    isError: false,
  });
  assert.equal(await fx.read("Agents/a/Home/work/x.md"), "made");
  const refused = await call(write, { path: "instructions/x.md", content: "no" }, ctx);
  assert.equal(refused.isError, true);
  assert.equal(
    firstLine(refused),
    'Cannot use "instructions/x.md": your grants ([files]) make "instructions/" read-only',
  );
  await assert.rejects(Deno.stat(join(fx.folders.instructions, "x.md")), Deno.errors.NotFound);
  assert.equal((await call(read, { path: "instructions/agent.md" }, ctx)).content, "# a\nbe kind\n");
});

Deno.test("write_file and edit_file refuse chats/ even when [files] says write (LAY-7)", async () => {
  await using fx = await toolFixture();
  // The sandbox file's schema lets a user write chats = "write"; the tools still refuse it.
  const ctx = fx.ctx({ files: { ".": "write", chats: "write" } });
  for (
    const [tool, args] of [
      [write, { path: "chats/link:1/events.jsonl", content: "rewritten" }],
      [edit, { path: "chats/link:1/events.jsonl", old_text: "{}", new_text: "[]" }],
    ] as const
  ) {
    const result = await call(tool, args, ctx);
    assert.deepEqual([result.isError, firstLine(result)], [
      true,
      'Cannot use "chats/link:1/events.jsonl": chats/ is never writable to a tool: only the harness writes it (LAY-7)',
    ]);
  }
  assert.equal(await fx.read("Agents/a/Agent/chats/link:1/events.jsonl"), "{}\n");
  assert.equal((await call(read, { path: "chats/link:1/events.jsonl" }, ctx)).content, "{}\n");
});

Deno.test('"." = none hides Home while a folder granted by name stays reachable (LAY-5)', async () => {
  await using fx = await toolFixture();
  const ctx = fx.ctx({ files: { ".": "none", work: "write", instructions: "read" } });
  const hidden = await call(read, { path: "docs/letter.txt" }, ctx);
  assert.deepEqual([hidden.isError, firstLine(hidden)], [
    true,
    'Cannot use "docs/letter.txt": your grants ([files]) do not show Home (".")',
  ]);
  assert.equal((await call(read, { path: "work/plan.md" }, ctx)).content, "the plan\n");
  assert.deepEqual(await call(list, {}, ctx), { content: "instructions/\nwork/", isError: false });
  assert.equal((await call(write, { path: "new.txt", content: "x" }, ctx)).isError, true);
});

Deno.test("list_files shows Home's folders with instructions/, skills/ and chats/ beside them", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Home/instructions/shadowed.md", "Home's own, covered by the collection");
  const ctx = fx.ctx({ files: { ".": "write", instructions: "read", skills: "read", chats: "read" } });
  assert.deepEqual(await call(list, { path: "." }, ctx), {
    content: "chats/\ndocs/\ninstructions/\nskills/\nwork/",
    isError: false,
  });
  assert.deepEqual(await call(list, { path: "instructions" }, ctx), {
    content: "agent.md (12 bytes)",
    isError: false,
  });
  const noSkills = fx.ctx({ files: { ".": "write" } });
  assert.deepEqual(await call(list, {}, noSkills), { content: "docs/\nwork/", isError: false });
  assert.equal(
    firstLine(await call(read, { path: "skills/x/SKILL.md" }, noSkills)),
    'Cannot use "skills/x/SKILL.md": your grants ([files]) do not show "skills/"',
  );
});

Deno.test("file tools refuse .. and absolute paths", async () => {
  await using fx = await toolFixture();
  const ctx = fx.ctx();
  assert.equal(
    firstLine(await call(read, { path: "../../../outside/secret.txt" }, ctx)),
    'Cannot use "../../../outside/secret.txt": it climbs out with ".."',
  );
  assert.equal(
    firstLine(await call(read, { path: join(fx.outside, "secret.txt") }, ctx)),
    `Cannot use "${
      join(fx.outside, "secret.txt")
    }": it is absolute: paths are relative to your folders, such as "work/notes.txt"`,
  );
  assert.equal(
    firstLine(await call(write, { path: "work/../../x", content: "" }, ctx)),
    'Cannot use "work/../../x": it climbs out with ".."',
  );
});

Deno.test("a symlink leading outside is refused for reading and writing; one inside is followed", async () => {
  await using fx = await toolFixture();
  await Deno.symlink(fx.outside, join(fx.folders.home, "work", "out"));
  await Deno.symlink(join(fx.outside, "secret.txt"), join(fx.folders.home, "secret-link"));
  await Deno.symlink(join(fx.outside, "nothing-yet"), join(fx.folders.home, "dangling"));
  await Deno.symlink(join(fx.folders.home, "docs", "letter.txt"), join(fx.folders.home, "work", "letter"));
  const ctx = fx.ctx();
  const outs = [
    await call(read, { path: "work/out/secret.txt" }, ctx),
    await call(read, { path: "secret-link" }, ctx),
    await call(write, { path: "work/out/new.txt", content: "x" }, ctx),
    await call(write, { path: "secret-link", content: "overwritten" }, ctx),
    await call(list, { path: "work/out" }, ctx),
  ];
  assert.deepEqual(outs.map(firstLine), [
    'Cannot use "work/out/secret.txt": it is a link that leads outside your folders',
    'Cannot use "secret-link": it is a link that leads outside your folders',
    'Cannot use "work/out/new.txt": it is a link that leads outside your folders',
    'Cannot use "secret-link": it is a link that leads outside your folders',
    'Cannot use "work/out": it is a link that leads outside your folders',
  ]);
  assert.equal(
    firstLine(await call(write, { path: "dangling", content: "x" }, ctx)),
    'Cannot use "dangling": it is a link that leads nowhere, or in a loop',
  );
  await assert.rejects(Deno.stat(join(fx.outside, "nothing-yet")), Deno.errors.NotFound);
  assert.equal(await fx.read("outside/secret.txt"), "the secret");
  assert.equal((await call(read, { path: "work/letter" }, ctx)).content, "dear owner\n");
  assert.match((await call(list, { path: "work" }, ctx)).content, /^letter \(link\)\nout \(link\)\nplan.md/);
});

Deno.test("a link into a read-only or hidden folder does not lend it write access", async () => {
  await using fx = await toolFixture();
  await Deno.symlink(fx.folders.instructions, join(fx.folders.home, "work", "instr"));
  await Deno.symlink(fx.folders.memory, join(fx.folders.home, "work", "mem"));
  await Deno.symlink(fx.folders.chats, join(fx.folders.home, "work", "chats-link"));
  const ctx = fx.ctx(LAY5);
  assert.equal(
    firstLine(await call(write, { path: "work/instr/agent.md", content: "rewritten" }, ctx)),
    'Cannot use "work/instr/agent.md": it is a link to "instructions/agent.md", which your grants do not let you write',
  );
  assert.equal(
    firstLine(await call(read, { path: "work/mem/index.md" }, ctx)),
    'Cannot use "work/mem/index.md": it is a link that leads outside your folders',
  );
  assert.equal(
    firstLine(await call(write, { path: "work/chats-link/link:1/events.jsonl", content: "x" }, ctx)),
    'Cannot use "work/chats-link/link:1/events.jsonl": it is a link to "chats/link:1/events.jsonl", ' +
      "which your grants do not let you write",
  );
  assert.equal(await fx.read("Agents/a/Agent/instructions/agent.md"), "# a\nbe kind\n");
  assert.equal(await fx.read("Agents/a/Agent/chats/link:1/events.jsonl"), "{}\n");
});

Deno.test("a hard link is a regular file: read and written like any other (LAY-9)", async () => {
  await using fx = await toolFixture();
  await Deno.link(join(fx.outside, "secret.txt"), join(fx.folders.home, "work", "hard.txt"));
  const ctx = fx.ctx();
  assert.deepEqual(await call(read, { path: "work/hard.txt" }, ctx), {
    content: "the secret",
    isError: false,
  });
  assert.equal(
    (await call(edit, { path: "work/hard.txt", old_text: "secret", new_text: "shared" }, ctx)).isError,
    false,
  );
  assert.equal(await fx.read("outside/secret.txt"), "the shared");
});

Deno.test("read_file pages a long file by byte offset, never cutting a character", async () => {
  await using fx = await toolFixture();
  const text = "a".repeat(256 * 1024 - 1) + "é" + "tail";
  await fx.write("Agents/a/Home/work/long.txt", text);
  const ctx = fx.ctx();
  const first = await call(read, { path: "work/long.txt" }, ctx);
  assert.equal(
    first.content.endsWith(
      `\n\n[Bytes 0 to 262143 of 262149. To read on, call read_file with offset 262143.]`,
    ),
    true,
  );
  assert.equal(first.content.startsWith("a".repeat(262143) + "\n"), true);
  assert.deepEqual(await call(read, { path: "work/long.txt", offset: 262143 }, ctx), {
    content: "étail\n\n[Bytes 262143 to 262149 of 262149.]",
    isError: false,
  });
});

Deno.test("read_file says a binary file is binary and a folder is a folder", async () => {
  await using fx = await toolFixture();
  await Deno.writeFile(join(fx.folders.home, "work", "b.bin"), new Uint8Array([1, 0, 2, 3]));
  const ctx = fx.ctx();
  assert.deepEqual(await call(read, { path: "work/b.bin" }, ctx), {
    content: '"work/b.bin" is a binary file of 4 bytes; it is not shown',
    isError: false,
  });
  assert.deepEqual(await call(read, { path: "work" }, ctx), {
    content: 'Cannot read "work": it is a folder\n  hint: Call list_files to see what it holds',
    isError: true,
  });
  assert.deepEqual(await call(read, { path: "work/none.txt" }, ctx), {
    content: 'Cannot read "work/none.txt": it does not exist',
    isError: true,
  });
});

Deno.test("write_file makes missing folders, and refuses to write over a folder", async () => {
  await using fx = await toolFixture();
  const ctx = fx.ctx();
  assert.equal((await call(write, { path: "work/a/b/c.txt", content: "deep" }, ctx)).isError, false);
  assert.equal(await fx.read("Agents/a/Home/work/a/b/c.txt"), "deep");
  assert.deepEqual(await call(write, { path: "work", content: "x" }, ctx), {
    content: 'Cannot write "work": it is a folder',
    isError: true,
  });
});

Deno.test("edit_file replaces text that occurs once, and refuses text found never or twice", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Home/work/e.txt", "one two two three");
  const ctx = fx.ctx();
  assert.deepEqual(await call(edit, { path: "work/e.txt", old_text: "one", new_text: "1" }, ctx), {
    content: 'Replaced 1 place in "work/e.txt"',
    isError: false,
  });
  assert.deepEqual(await call(edit, { path: "work/e.txt", old_text: "two", new_text: "2" }, ctx), {
    content: 'Cannot edit "work/e.txt": old_text occurs 2 times\n' +
      "  hint: Include more of the surrounding text so it occurs once, or set replace_all",
    isError: true,
  });
  assert.equal(
    firstLine(await call(edit, { path: "work/e.txt", old_text: "four", new_text: "4" }, ctx)),
    'Cannot edit "work/e.txt": old_text does not occur in it',
  );
  assert.equal(
    (await call(edit, { path: "work/e.txt", old_text: "two", new_text: "2", replace_all: true }, ctx))
      .content,
    'Replaced 2 places in "work/e.txt"',
  );
  assert.equal(await fx.read("Agents/a/Home/work/e.txt"), "1 2 2 three");
});

Deno.test("a bad argument is a result saying what was wrong, never a throw", async () => {
  await using fx = await toolFixture();
  const result = await call(write, { path: "work/x", content: 3, extra: true }, fx.ctx());
  assert.equal(result.isError, true);
  assert.equal(firstLine(result), "Cannot run write_file: some arguments are not valid:");
  assert.match(result.content, /content/);
  assert.match(result.content, /extra/);
});
