import assert from "node:assert/strict";
import { join } from "node:path";
import { closeFd, statFd, walkNoFollow } from "../../sandbox/walk_no_follow.ts";

async function tempTree(): Promise<{ root: string } & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-walk-" }));
  await Deno.mkdir(join(root, "agent", "proj", "docs"), { recursive: true });
  await Deno.mkdir(join(root, "person", "data"), { recursive: true });
  await Deno.writeTextFile(join(root, "agent", "proj", "docs", "d.txt"), "docs\n");
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

function walk(path: string, writable: string[], more: { make?: number } = {}) {
  const found = walkNoFollow(path, { writable, what: `the grant "${path}"`, ...more });
  if (found.fd !== undefined) closeFd(found.fd);
  return { real: found.real, type: found.type };
}

Deno.test("walkNoFollow() opens a path of folders and says what is at its end", async () => {
  await using t = await tempTree();
  const writable = [join(t.root, "agent")];
  assert.deepEqual(walk(join(t.root, "agent", "proj", "docs"), writable), {
    real: join(t.root, "agent", "proj", "docs"),
    type: "dir",
  });
  assert.deepEqual(walk(join(t.root, "agent", "proj", "docs", "d.txt"), writable), {
    real: join(t.root, "agent", "proj", "docs", "d.txt"),
    type: "file",
  });
  assert.deepEqual(walk("/", writable), { real: "/", type: "dir" });
});

Deno.test("walkNoFollow() says where a missing path would be, making nothing", async () => {
  await using t = await tempTree();
  assert.deepEqual(walk(join(t.root, "agent", "none", "deeper"), []), {
    real: join(t.root, "agent", "none", "deeper"),
    type: "missing",
  });
  await assert.rejects(Deno.lstat(join(t.root, "agent", "none")), Deno.errors.NotFound);
});

for (const depth of ["the leaf", "a middle part", "the first part in the writable place"]) {
  Deno.test(`walkNoFollow() refuses a link at ${depth} of a path in a writable place, naming it`, async () => {
    await using t = await tempTree();
    const parts = ["proj", "docs", "api"];
    await Deno.mkdir(join(t.root, "agent", ...parts), { recursive: true });
    const at = { "the leaf": 3, "a middle part": 2, "the first part in the writable place": 1 }[depth]!;
    const link = join(t.root, "agent", ...parts.slice(0, at));
    await Deno.remove(link, { recursive: true });
    await Deno.symlink(join(t.root, "person"), link);
    const path = join(t.root, "agent", ...parts);
    assert.throws(() => walk(path, [join(t.root, "agent")]), {
      name: "LinkError",
      code: "SYMLINK_REFUSED",
      message: `Cannot start the sandbox: "${link}" is a symbolic link in a place an agent can write, ` +
        `on the way to the grant "${path}"`,
    });
  });
}

Deno.test("walkNoFollow() follows a link the person made outside every writable place, on to its real path", async () => {
  await using t = await tempTree();
  await Deno.symlink(join(t.root, "agent", "proj"), join(t.root, "person", "code"));
  await Deno.symlink("../agent/proj/docs/../docs", join(t.root, "person", "rel"));
  const writable = [join(t.root, "agent")];
  assert.deepEqual(walk(join(t.root, "person", "code", "docs"), writable), {
    real: join(t.root, "agent", "proj", "docs"),
    type: "dir",
  });
  assert.deepEqual(walk(join(t.root, "person", "rel", "d.txt"), writable), {
    real: join(t.root, "agent", "proj", "docs", "d.txt"),
    type: "file",
  });
  // Once inside a writable place, the same rule holds from the link's target on.
  await Deno.symlink("/etc", join(t.root, "agent", "proj", "etc"));
  assert.throws(() => walk(join(t.root, "person", "code", "etc", "passwd"), writable), {
    code: "SYMLINK_REFUSED",
  });
});

Deno.test("walkNoFollow() makes missing folders part by part with `make`, never through a link", async () => {
  await using t = await tempTree();
  assert.deepEqual(walk(join(t.root, "agent", "new", "deeper"), [join(t.root, "agent")], { make: 0o700 }), {
    real: join(t.root, "agent", "new", "deeper"),
    type: "dir",
  });
  assert.equal((await Deno.stat(join(t.root, "agent", "new", "deeper"))).mode! & 0o777, 0o700);
  await Deno.symlink(join(t.root, "person"), join(t.root, "agent", "planted"));
  assert.throws(
    () => walk(join(t.root, "agent", "planted", "made"), [join(t.root, "agent")], { make: 0o700 }),
    {
      code: "SYMLINK_REFUSED",
    },
  );
  await assert.rejects(Deno.lstat(join(t.root, "person", "made")), Deno.errors.NotFound);
});

Deno.test("statFd() tells a link from what it points at", async () => {
  await using t = await tempTree();
  await Deno.symlink(join(t.root, "person"), join(t.root, "link"));
  const found = walkNoFollow(join(t.root, "link"), { writable: [], what: "a test" });
  assert.equal(found.type, "dir");
  assert.equal(statFd(found.fd!).type, "dir");
  closeFd(found.fd!);
});
