import assert from "node:assert/strict";
import { closeInheritedFds } from "../../sandbox/inherited_fds.ts";
import { O_DIRECTORY, O_PATH, PassedFds } from "../../sandbox/passed_fds.ts";

async function sh(script: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("/bin/sh", { args: ["-c", script, "sh", ...args], stderr: "null" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

Deno.test("PassedFds.memfd() hands the next program an in-memory file it reads from the start", async () => {
  closeInheritedFds();
  let fd: number;
  let read: Promise<string>;
  {
    using fds = new PassedFds();
    fd = fds.memfd("lnk-test", new TextEncoder().encode("filter bytes"));
    read = sh('cat "/proc/self/fd/$1"', String(fd));
  }
  assert.equal(await read, "filter bytes");
  // Disposed: the next program gets nothing at that number.
  assert.equal(await sh('test -e "/proc/self/fd/$1" && echo open || echo closed', String(fd)), "closed\n");
});

Deno.test("PassedFds.open() passes a folder by descriptor, which the program sees as that folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "a");
    closeInheritedFds();
    let listing: Promise<string>;
    {
      using fds = new PassedFds();
      const fd = fds.open(dir, O_PATH | O_DIRECTORY);
      listing = sh('ls "/proc/self/fd/$1/"', String(fd));
    }
    assert.equal(await listing, "a.txt\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PassedFds.openAt() says the errno of a name that is not there, opening nothing", () => {
  using fds = new PassedFds();
  const root = fds.open("/", O_PATH | O_DIRECTORY);
  assert.deepEqual(fds.openAt(root, "no-such-entry-here", O_PATH), { fd: -1, errno: 2 });
  assert.equal(fds.fds.length, 1);
});
