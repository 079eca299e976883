import assert from "node:assert/strict";
import { join } from "node:path";
import { cgroupPlaces, parseCgroupMounts, parseOwnCgroups } from "../../sandbox/cgroups.ts";
import { makeSandboxCgroup } from "../../sandbox/sandbox_cgroup.ts";

const HYBRID = (root: string) =>
  `31 23 0:28 / ${root} rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / ${root}/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:33 / ${root}/cpu\\040acct rw,relatime - cgroup cgroup rw,cpu,cpuacct
39 31 0:36 / ${root}/pids rw,relatime shared:9 - cgroup cgroup rw,pids
41 31 0:38 / ${root}/unified rw,relatime - cgroup2 cgroup2 rw
`;

Deno.test("parseCgroupMounts() finds v1 hierarchies with their controllers and the v2 one, unescaping paths", () => {
  assert.deepEqual(parseCgroupMounts(HYBRID("/sys/fs/cgroup")), [
    { version: 1, at: "/sys/fs/cgroup/memory", root: "/", controllers: ["rw", "memory"] },
    { version: 1, at: "/sys/fs/cgroup/cpu acct", root: "/", controllers: ["rw", "cpu", "cpuacct"] },
    { version: 1, at: "/sys/fs/cgroup/pids", root: "/", controllers: ["rw", "pids"] },
    { version: 2, at: "/sys/fs/cgroup/unified", root: "/", controllers: [] },
  ]);
});

Deno.test('parseOwnCgroups() maps each controller, and v2 as "", to this process\'s cgroup', () => {
  const own = parseOwnCgroups("8:pids:/\n4:memory:/a/b\n2:cpu,cpuacct:/c\n0::/user.slice/x.scope\n");
  assert.deepEqual(
    [...own],
    [["pids", "/"], ["memory", "/a/b"], ["cpu", "/c"], ["cpuacct", "/c"], ["", "/user.slice/x.scope"]],
  );
});

/** A tree standing for the cgroup file system: folders, and files with their text. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "lnk-cgroup-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    if (path.endsWith("/")) await Deno.mkdir(join(root, path), { recursive: true });
    else await Deno.writeTextFile(join(root, path), text);
  }
  return root;
}

Deno.test("cgroupPlaces() on cgroup v1 with an empty unified hierarchy: memory and pids at this process's own cgroups", async () => {
  const root = await tree({ "memory/api/x/": "", "pids/": "", "unified/cgroup.subtree_control": "" });
  try {
    await Deno.writeTextFile(join(root, "mountinfo"), HYBRID(root));
    await Deno.writeTextFile(join(root, "cgroup"), "8:pids:/\n4:memory:/api/x\n0::/\n");
    assert.deepEqual(
      await cgroupPlaces({ mountinfo: join(root, "mountinfo"), cgroup: join(root, "cgroup") }),
      [
        { version: 1, dir: join(root, "memory/api/x"), controllers: ["memory"] },
        { version: 1, dir: join(root, "pids"), controllers: ["pids"] },
      ],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("cgroupPlaces() on cgroup v2: the nearest cgroup above this process's own that hands memory and pids down", async () => {
  const root = await tree({
    "cgroup.subtree_control": "cpu io memory pids",
    "system.slice/cgroup.subtree_control": "memory pids",
    "system.slice/lnk.service/cgroup.subtree_control": "",
  });
  try {
    await Deno.writeTextFile(
      join(root, "mountinfo"),
      `30 23 0:26 / ${root} rw shared:4 - cgroup2 cgroup2 rw\n`,
    );
    await Deno.writeTextFile(join(root, "cgroup"), "0::/system.slice/lnk.service\n");
    const source = { mountinfo: join(root, "mountinfo"), cgroup: join(root, "cgroup") };
    assert.deepEqual(await cgroupPlaces(source), [
      { version: 2, dir: join(root, "system.slice"), controllers: ["memory", "pids"] },
    ]);
    // In a container at the root of its own cgroup namespace, the root itself.
    await Deno.writeTextFile(join(root, "cgroup"), "0::/\n");
    assert.deepEqual(await cgroupPlaces(source), [{
      version: 2,
      dir: root,
      controllers: ["memory", "pids"],
    }]);
    // Nothing handed down anywhere: no place.
    await Deno.writeTextFile(join(root, "cgroup.subtree_control"), "cpu");
    await Deno.writeTextFile(join(root, "system.slice/cgroup.subtree_control"), "");
    await Deno.writeTextFile(join(root, "cgroup"), "0::/system.slice/lnk.service\n");
    assert.deepEqual(await cgroupPlaces(source), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

const NOW = { now: () => 0, sleep: () => Promise.resolve() };

Deno.test("makeSandboxCgroup() writes the limits in the v2 place first and removes a dead Link's cgroups", async () => {
  const ns = /\[(\d+)\]/.exec(await Deno.readLink("/proc/self/ns/pid"))![1];
  const root = await tree({ [`v2/lnk-${ns}-99999999-0/`]: "", [`v2/lnk-${ns}-1-0/`]: "", "v1/": "" });
  try {
    const cgroup = await makeSandboxCgroup({ memory: 2 ** 30, processes: 100 }, [
      { version: 1, dir: join(root, "v1"), controllers: ["memory", "pids"] },
      { version: 2, dir: join(root, "v2"), controllers: ["memory", "pids"] },
      { version: 1, dir: join(root, "none"), controllers: ["memory"] },
    ], NOW);
    const dir = cgroup.held.memory!.dir;
    assert.match(dir, new RegExp(`/v2/lnk-${ns}-${Deno.pid}-\\d+$`));
    assert.deepEqual(cgroup.held, { memory: { version: 2, dir }, pids: { version: 2, dir } });
    assert.deepEqual(cgroup.procs, [join(dir, "cgroup.procs")]);
    // A file the kernel has not made (no swap accounting) is not made here either: cgroupfs refuses it.
    const read = (name: string) => Deno.readTextFile(join(dir, name)).catch(() => "none");
    assert.deepEqual([await read("memory.max"), await read("memory.swap.max"), await read("pids.max")], [
      "1073741824",
      "none",
      "100",
    ]);
    // The dead Link's cgroup is gone; pid 1's, alive, is kept; nothing was made in v1.
    const names = (await Array.fromAsync(Deno.readDir(join(root, "v2")))).map((e) => e.name).sort();
    assert.deepEqual(names, [`lnk-${ns}-1-0`, dir.split("/").at(-1)!].sort());
    assert.deepEqual(await Array.fromAsync(Deno.readDir(join(root, "v1"))), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("makeSandboxCgroup() uses v1 where v2 has no place, and passes over one it cannot make", async () => {
  const root = await tree({ "memory/": "", "pids/": "" });
  try {
    const cgroup = await makeSandboxCgroup({ memory: 2 ** 31, processes: 64 }, [
      { version: 1, dir: join(root, "memory"), controllers: ["memory"] },
      { version: 1, dir: join(root, "no-such-place"), controllers: ["pids"] },
    ], NOW);
    const dir = cgroup.held.memory!.dir;
    assert.deepEqual(cgroup.held, { memory: { version: 1, dir } });
    assert.deepEqual(
      [
        await Deno.readTextFile(join(dir, "memory.limit_in_bytes")),
        await Deno.readTextFile(join(dir, "memory.memsw.limit_in_bytes")).catch(() => "none"),
      ],
      ["2147483648", "none"],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
