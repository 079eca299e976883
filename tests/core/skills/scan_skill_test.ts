import assert from "node:assert/strict";
import { join } from "node:path";
import { closeFd, walkNoFollow } from "../../../sandbox/mod.ts";
import { scanSkill, SKILL_LIMITS } from "../../../core/skills/scan_skill.ts";

async function withFolder(
  fill: (dir: string) => Promise<void>,
  check: (fd: number) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-scan-" });
  try {
    await fill(dir);
    const { fd } = walkNoFollow(dir, { writable: [], what: "the test's folder" });
    try {
      check(fd!);
    } finally {
      closeFd(fd!);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function files(dir: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Deno.writeTextFile(join(dir, `f${i}`), "");
}

async function folders(dir: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Deno.mkdir(join(dir, `d${i}`));
}

async function deep(dir: string, depth: number): Promise<void> {
  await Deno.mkdir(join(dir, ...Array.from({ length: depth }, (_, i) => `d${i}`)), { recursive: true });
}

const what = { what: 'skill "x"' };

Deno.test("scanSkill() takes a skill at each limit: 1,000 files, 1,000 folders, 32 deep, 64 MB (SKL-2)", async () => {
  await withFolder((dir) => files(dir, 1_000), (fd) => assert.equal(scanSkill(fd, what).files, 1_000));
  await withFolder((dir) => folders(dir, 1_000), (fd) => assert.equal(scanSkill(fd, what).folders, 1_000));
  await withFolder((dir) => deep(dir, 32), (fd) => assert.equal(scanSkill(fd, what).folders, 32));
  await withFolder(async (dir) => {
    await Deno.writeFile(join(dir, "big"), new Uint8Array());
    await Deno.truncate(join(dir, "big"), SKILL_LIMITS.bytes);
  }, (fd) => assert.equal(scanSkill(fd, what).bytes, 64 * 1024 * 1024));
});

Deno.test("scanSkill() refuses a skill past any limit: 1,001 files, 1,001 folders, 33 deep, 64 MB and a byte (SKL-2)", async () => {
  const refused = { name: "LinkError", code: "REFUSED" };
  await withFolder((dir) => files(dir, 1_001), (fd) => assert.throws(() => scanSkill(fd, what), refused));
  await withFolder((dir) => folders(dir, 1_001), (fd) => assert.throws(() => scanSkill(fd, what), refused));
  await withFolder((dir) => deep(dir, 33), (fd) => assert.throws(() => scanSkill(fd, what), refused));
  await withFolder(async (dir) => {
    await Deno.writeFile(join(dir, "big"), new Uint8Array());
    await Deno.truncate(join(dir, "big"), SKILL_LIMITS.bytes - 1);
    await Deno.writeTextFile(join(dir, "small"), "ab");
  }, (fd) => assert.throws(() => scanSkill(fd, what), refused));
});

Deno.test("scanSkill() leaves out links and a fifo, naming each, and never follows a link", async () => {
  await withFolder(async (dir) => {
    await Deno.writeTextFile(join(dir, "SKILL.md"), "x");
    await Deno.mkdir(join(dir, "sub"));
    await Deno.symlink("/etc", join(dir, "sub", "etc"));
    await Deno.symlink("../SKILL.md", join(dir, "again.md"));
    const mk = await new Deno.Command("mkfifo", { args: [join(dir, "sub", "pipe")] }).output();
    assert.ok(mk.success);
  }, (fd) => {
    const scan = scanSkill(fd, what);
    assert.deepEqual(scan.leftOut, [
      { path: "again.md", kind: "link" },
      { path: "sub/etc", kind: "link" },
      { path: "sub/pipe", kind: "other" },
    ]);
    assert.deepEqual({ files: scan.files, folders: scan.folders, bytes: scan.bytes }, {
      files: 1,
      folders: 1,
      bytes: 1,
    });
  });
});
