import assert from "node:assert/strict";
import { join } from "node:path";
import { notesTools } from "../../../../core/harness/tools/mod.ts";
import { call, firstLine, toolFixture } from "../../../support/tool_fixture.ts";

const [noteWrite, noteRead, noteList] = notesTools();

Deno.test("note_write, note_read and note_list keep markdown notes in Agent/memory/ (PRN-3)", async () => {
  await using fx = await toolFixture();
  // Notes are the harness's, not the files view: they work whatever [files] says.
  const ctx = fx.ctx({ files: { ".": "none" } });
  assert.deepEqual(await call(noteWrite!, { name: "people", text: "# People\nAda likes tea" }, ctx), {
    content: 'Wrote note "people" (22 characters)',
    isError: false,
  });
  assert.deepEqual(
    await call(noteWrite!, { name: "people.md", text: "Bo likes coffee\n", mode: "append" }, ctx),
    {
      content: 'Added to note "people" (39 characters)',
      isError: false,
    },
  );
  assert.equal(
    await fx.read("Agents/a/Agent/memory/people.md"),
    "# People\nAda likes tea\nBo likes coffee\n",
  );
  assert.deepEqual(await call(noteRead!, { name: "people" }, ctx), {
    content: "# People\nAda likes tea\nBo likes coffee\n",
    isError: false,
  });
  await call(noteWrite!, { name: "a-plan", text: "\n\nship it" }, ctx);
  assert.deepEqual(await call(noteList!, {}, ctx), {
    content: "a-plan (9 characters): ship it\nindex (7 characters): memory\npeople (39 characters): # People",
    isError: false,
  });
});

Deno.test("notes refuse names that leave the folder, and links", async () => {
  await using fx = await toolFixture();
  await Deno.symlink(join(fx.outside, "secret.txt"), join(fx.folders.memory, "linked.md"));
  const ctx = fx.ctx();
  assert.equal(
    firstLine(await call(noteRead!, { name: "../outside/secret" }, ctx)),
    "Cannot run note_read: some arguments are not valid:",
  );
  assert.equal(
    firstLine(await call(noteRead!, { name: "linked" }, ctx)),
    'Cannot use note "linked": it is a link or a folder, not a note',
  );
  assert.equal(
    firstLine(await call(noteWrite!, { name: "linked", text: "over" }, ctx)),
    'Cannot use note "linked": it is a link or a folder, not a note',
  );
  assert.equal(await fx.read("outside/secret.txt"), "the secret");
  assert.deepEqual(await call(noteRead!, { name: "missing" }, ctx), {
    content: 'Cannot read note "missing": there is no such note\n  hint: Call note_list to see your notes',
    isError: true,
  });
});

Deno.test("note_list says when there are no notes, even without a memory folder", async () => {
  await using fx = await toolFixture();
  await Deno.remove(fx.folders.memory, { recursive: true });
  assert.deepEqual(await call(noteList!, {}, fx.ctx()), { content: "(no notes yet)", isError: false });
});
