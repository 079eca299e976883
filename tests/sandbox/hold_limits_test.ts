import assert from "node:assert/strict";
import { join } from "node:path";
import { holdLimits } from "../../sandbox/hold_limits.ts";
import { parseSandboxSpec } from "../../sandbox/mod.ts";

const LIMITS =
  parseSandboxSpec('[limits]\nprocesses = 100\nmemory = "2GiB"\nfile_size = "1GiB"\n', "s").limits;
const ENV = { PATH: "/usr/bin:/bin", HOME: "/h" };
const PRLIMIT = (await Deno.stat("/usr/bin/prlimit").then(() => true, () => false))
  ? "/usr/bin/prlimit"
  : "/bin/prlimit";

Deno.test("holdLimits() with no cgroup to make and no user manager holds all by rlimits, processes counted per user", async () => {
  await using held = await holdLimits(LIMITS, ENV, { places: [], scope: null });
  const set = held.held.processes.set!;
  assert.deepEqual(held.held, {
    processes: { value: 100, by: "rlimit", set, uid: Deno.uid() },
    memory: { value: 2 ** 31, by: "rlimit" },
    fileSize: { value: 2 ** 30, by: "rlimit" },
  });
  const [program, fsize, nproc, data, end] = held.prefix;
  assert.deepEqual([program, fsize, data, end], [
    PRLIMIT,
    "--fsize=1073741824:1073741824",
    "--data=2147483648:2147483648",
    "--",
  ]);
  // RLIMIT_NPROC counts every task of the user: the limit on top of what it runs now (this test, at least).
  assert.equal(nproc, `--nproc=${set}:${set}`);
  assert.ok(set > 100, nproc);
  assert.deepEqual(held.env, {});
});

Deno.test("holdLimits() joins the cgroup it made before the rlimits: only the file size is left to them", async () => {
  const root = await Deno.makeTempDir({ prefix: "lnk-cgroup-" });
  try {
    const held = await holdLimits(LIMITS, ENV, {
      places: [{ version: 2, dir: root, controllers: ["memory", "pids"] }],
      scope: null,
    });
    const dir = held.held.memory.dir!;
    assert.deepEqual(held.held, {
      processes: { value: 100, by: "cgroup v2", dir },
      memory: { value: 2 ** 31, by: "cgroup v2", dir },
      fileSize: { value: 2 ** 30, by: "rlimit" },
    });
    assert.deepEqual(held.prefix, [
      "/bin/sh",
      "-c",
      'while [ "$1" != -- ]; do echo 0 > "$1" || exit 125; shift; done; shift; exec "$@"',
      "lnk-limits",
      join(dir, "cgroup.procs"),
      "--",
      PRLIMIT,
      "--fsize=1073741824:1073741824",
      "--",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("holdLimits() runs a user's sandbox in a scope of its systemd manager, whose variables bubblewrap never gets", async () => {
  await using held = await holdLimits(LIMITS, ENV, {
    places: [],
    scope: { controllers: ["pids"], env: { XDG_RUNTIME_DIR: "/run/user/1000" } },
  });
  assert.deepEqual(held.held, {
    processes: { value: 100, by: "systemd scope" },
    memory: { value: 2 ** 31, by: "rlimit" },
    fileSize: { value: 2 ** 30, by: "rlimit" },
  });
  assert.deepEqual(held.prefix, [
    "systemd-run",
    "--user",
    "--scope",
    "--quiet",
    "--collect",
    "--property=TasksMax=100",
    "--property=MemoryMax=2147483648",
    "--property=MemorySwapMax=0",
    "--",
    "env",
    "-u",
    "XDG_RUNTIME_DIR",
    "--",
    PRLIMIT,
    "--fsize=1073741824:1073741824",
    "--data=2147483648:2147483648",
    "--",
  ]);
  assert.deepEqual(held.env, { XDG_RUNTIME_DIR: "/run/user/1000" });
});
