import assert from "node:assert/strict";
import { closeFd, renameNoReplace, walkNoFollow } from "../../sandbox/mod.ts";

Deno.test("renameNoReplace() renames within its folder and never replaces what is there: a folder, an empty one, a file or a link", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-rename-" });
  const { fd } = walkNoFollow(dir, { writable: [], what: "the test's folder" });
  try {
    await Deno.mkdir(`${dir}/copy/inner`, { recursive: true });
    await Deno.mkdir(`${dir}/empty`);
    await Deno.mkdir(`${dir}/full/x`, { recursive: true });
    await Deno.writeTextFile(`${dir}/file`, "f");
    await Deno.symlink("/", `${dir}/link`);
    for (const there of ["empty", "full", "file", "link"]) {
      assert.equal(renameNoReplace(fd!, "copy", there), "exists", there);
    }
    assert.deepEqual([...Deno.readDirSync(`${dir}/empty`)], []);
    assert.equal(Deno.readLinkSync(`${dir}/link`), "/");
    assert.equal(renameNoReplace(fd!, "copy", "skill"), "renamed");
    assert.deepEqual([...Deno.readDirSync(`${dir}/skill`)].map((e) => e.name), ["inner"]);
  } finally {
    closeFd(fd!);
    await Deno.remove(dir, { recursive: true });
  }
});
