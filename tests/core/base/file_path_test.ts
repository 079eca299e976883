import assert from "node:assert/strict";
import { posix } from "node:path";
import { pathToFileURL } from "node:url";
import { dirnamePath, fileUrlPath, joinPath } from "../../../core/base/mod.ts";

const PATHS = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///",
  "a",
  "a/",
  "a//",
  "/a",
  "/a/",
  "//a",
  "//a/b",
  "a/b",
  "a//b",
  "a/b/",
  "/a/b/c",
  "/a/./b",
  "/a/../b",
  "../a",
  "a/..",
  "a/../..",
  "./a",
  "/..",
  "/../a",
  "/home/x/.lnk/",
];

Deno.test("joinPath() joins and normalizes as node:path's join", () => {
  for (const a of PATHS) {
    for (const b of PATHS) {
      assert.equal(joinPath(a, b), posix.join(a, b), `joinPath(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
    }
    assert.equal(joinPath(a), posix.join(a), `joinPath(${JSON.stringify(a)})`);
    assert.equal(joinPath(a, "x", "..", "y.toml"), posix.join(a, "x", "..", "y.toml"));
  }
  assert.equal(joinPath(), posix.join());
});

Deno.test("dirnamePath() is node:path's dirname", () => {
  for (const path of PATHS) assert.equal(dirnamePath(path), posix.dirname(path), JSON.stringify(path));
});

Deno.test("fileUrlPath() is node:url's fileURLToPath for file URLs", () => {
  for (const path of ["/a/b.ts", "/with space/é.ts", "/a%b/c#d?e"]) {
    const url = pathToFileURL(path);
    assert.equal(fileUrlPath(url), path);
  }
  assert.equal(fileUrlPath(new URL("../../main.ts", "file:///x/core/base/role.ts")), "/x/main.ts");
  assert.throws(() => fileUrlPath(new URL("https://example.test/a")), TypeError);
  assert.throws(() => fileUrlPath(new URL("file:///a%2Fb")), TypeError);
});
