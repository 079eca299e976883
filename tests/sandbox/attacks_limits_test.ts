/**
 * The attack suite, limits (issue 9, item 6): from inside a real sandbox, started by root (a
 * cgroup holds processes and memory) and by an ordinary user (rlimits do), each test tries to
 * take more of this machine than the sandbox's [limits] allow, and ends because it cannot.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cgroupPlaces } from "../../sandbox/cgroups.ts";
import { agentFixture, NO_BWRAP, orphanSandbox } from "../support/sandbox.ts";
import { attackTwice } from "../support/sandbox_as_user.ts";

const NO_PERL = (await new Deno.Command("sh", { args: ["-c", "command -v perl"], stdout: "null" }).output())
    .success
  ? undefined
  : "perl, which the fork bomb and the memory hog are written in, is not installed";
if (NO_PERL) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`limit attacks in perl ignored: ${NO_PERL}`);
}

const MIB = 1024 * 1024;

attackTwice(
  "a fork bomb: 2,000 processes asked for, under [limits] processes = 64",
  // Each child holds its place until the parent lets go; the parent stops at the first refusal.
  `perl -e '
    pipe(my $r, my $w); my $n = 0;
    while ($n < 2000) {
      my $p = fork(); last unless defined $p;
      if ($p == 0) { close $w; <$r>; exit 0 }
      $n++;
    }
    print STDERR "made $n\\n"; print $n < 200 ? "bounded\\n" : "unbounded: $n\\n";
    close $w; 1 while wait() > 0;'`,
  "bounded\n",
  async () => {},
  { needs: NO_PERL, run: { spec: "[limits]\nprocesses = 64\n" } },
);

attackTwice(
  "touch 3 GiB of memory under [limits] memory = 2GiB; 256 MiB still works",
  `perl -e '$x = "a" x (256 << 20); print "touched 256 MiB\\n"'
  perl -e '$x = "a" x (3072 << 20); print "touched 3 GiB\\n"' 2>/dev/null || echo stopped`,
  "touched 256 MiB\nstopped\n",
  async () => {},
  { needs: NO_PERL, run: { spec: '[limits]\nmemory = "2GiB"\n' } },
);

attackTwice(
  "fill the host's disk through one file: fallocate, fallocate -n, a long write, truncate, under file_size = 16MiB",
  `fallocate -l 64M big 2>/dev/null || echo "fallocate refused"
  : > keep; fallocate -n -l 64M keep 2>/dev/null || echo "fallocate keeping the size refused"
  head -c 64M /dev/zero > long 2>/dev/null || echo "write stopped at $(($(stat -c %s long) >> 20)) MiB"
  truncate -s 1T sparse 2>/dev/null || echo "truncate refused"
  head -c 1M /dev/zero > ok && echo "1 MiB written"`,
  "fallocate refused\nfallocate keeping the size refused\nwrite stopped at 16 MiB\ntruncate refused\n" +
    "1 MiB written\n",
  async (home) => {
    // What each file takes of the host's disk: no more than the bound.
    const used = async (name: string) => {
      const info = await Deno.stat(join(home, name)).catch(() => undefined);
      return info && [info.size, info.blocks! * 512 <= 16 * MIB + 64 * 1024];
    };
    assert.deepEqual(
      [await used("big"), await used("keep"), await used("long"), await used("sparse"), await used("ok")],
      [[0, true], [0, true], [16 * MIB, true], [0, true], [MIB, true]],
    );
  },
  { run: { spec: '[limits]\nfile_size = "16MiB"\n' } },
);

attackTwice(
  "fill /tmp and /dev/shm: each full at its size (256 MiB, 64 MiB)",
  `head -c 300M /dev/zero > /tmp/fill 2>/dev/null; echo "/tmp full at $(($(stat -c %s /tmp/fill) >> 20)) MiB"
  fallocate -l 512M /tmp/more 2>/dev/null || echo "fallocate in /tmp refused"
  head -c 100M /dev/zero > /dev/shm/fill 2>/dev/null; echo "/dev/shm full at $(($(stat -c %s /dev/shm/fill) >> 20)) MiB"`,
  "/tmp full at 256 MiB\nfallocate in /tmp refused\n/dev/shm full at 64 MiB\n",
  async () => {},
);

const NO_CGROUP = NO_BWRAP ??
  ((await cgroupPlaces()).length && Deno.uid() === 0
    ? undefined
    : "no cgroup hierarchy here that Link may make cgroups in");

Deno.test({
  name: "attack: kill -9 Link with a sandbox running: its cgroups are removed at the next start",
  ignore: NO_CGROUP !== undefined,
}, async () => {
  await using orphan = await orphanSandbox();
  const { parent, out: reader } = orphan;
  const left = async () => {
    const found: string[] = [];
    for (const place of await cgroupPlaces()) {
      for await (const e of Deno.readDir(place.dir)) {
        if (e.name.includes(`-${parent.pid}-`)) found.push(e.name);
      }
    }
    return found.length;
  };
  // One cgroup for each hierarchy holding memory or pids (two on cgroup v1, one on v2).
  const made = await left();
  assert.notEqual(made, 0);
  parent.kill("SIGKILL");
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
  await parent.status;
  assert.equal(await left(), made);
  await using fx = await agentFixture();
  assert.equal((await fx.sh("true")).code, 0);
  assert.equal(await left(), 0);
});
