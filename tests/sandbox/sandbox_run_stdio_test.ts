/**
 * `lnk sandbox run` as a person runs it at a shell, with its streams redirected: the program gets
 * pipes Link relays, never the caller's own descriptors (a folder on stdin would be a way out of
 * the sandbox through /proc/self/fd/0/..; a file on stdout, the caller's to reopen).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { roleArgv } from "../../core/base/mod.ts";
import { tempHome } from "../support/mod.ts";
import { sandboxTest } from "../support/sandbox.ts";

const PROGRAM = "for fd in 0 1 2; do readlink /proc/self/fd/$fd | sed 's/\\[[0-9]*\\]//'; done; " +
  "ls /proc/self/fd/0/.. >/dev/null 2>&1 && echo walked-out || echo stayed-in; cat; echo err >&2";

sandboxTest(
  "attack: lnk sandbox run < a folder, > a file: the program holds pipes, never the caller's",
  async () => {
    await using home = await tempHome();
    const out = join(home.path, "out.txt");
    await Deno.writeTextFile(out, "the caller's own\n");
    const lnk = roleArgv(["sandbox", "run", "--", "/bin/sh", "-c", PROGRAM]);
    // A folder on stdin, a file to append to on stdout: as `lnk sandbox run ... < ~ >> out.txt` does.
    const shell = await new Deno.Command("/bin/sh", {
      args: [
        "-c",
        'dir=$1; out=$2; shift 2; exec "$@" < "$dir" >> "$out" 2>&1',
        "sh",
        home.path,
        out,
        ...lnk,
      ],
      env: home.env.toObject(),
      clearEnv: true,
    }).output();
    assert.equal(shell.code, 0, new TextDecoder().decode(shell.stderr));
    // A folder cannot be read as a stream: the program's stdin ends at once, as from /dev/null.
    assert.equal(await Deno.readTextFile(out), "the caller's own\npipe:\npipe:\npipe:\nstayed-in\nerr\n");
  },
);

sandboxTest("lnk sandbox run relays a file on stdin to the program, and its output back", async () => {
  await using home = await tempHome();
  const input = join(home.path, "in.txt");
  await Deno.writeTextFile(input, "line one\nline two\n");
  const lnk = roleArgv([
    "sandbox",
    "run",
    "--",
    "/bin/sh",
    "-c",
    "readlink /proc/self/fd/0 | cut -c1-5; cat",
  ]);
  const shell = await new Deno.Command("/bin/sh", {
    args: ["-c", 'file=$1; shift; exec "$@" < "$file"', "sh", input, ...lnk],
    env: home.env.toObject(),
    clearEnv: true,
  }).output();
  assert.equal(new TextDecoder().decode(shell.stdout), "pipe:\nline one\nline two\n");
  assert.equal(shell.code, 0);
});
