/**
 * The attack suite, setuid files and device nodes (issue 9, item 2): from inside a real sandbox,
 * started by root and by an ordinary user, each test tries to leave a file on the host that would
 * run as its owner or reach a device, by every call that could, and then looks at the host file.
 * The system call filter (sandbox/seccomp_filter.ts) refuses them; perl makes the raw calls.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentFixture, sandboxTest } from "../support/sandbox.ts";
import { attackTwice } from "../support/sandbox_as_user.ts";

const X86 = Deno.build.arch === "x86_64";
const NR = X86
  ? { fchmod: 91, fchmodat: 268, fchmodat2: 452, openat: 257, mknodat: 259, clone3: 435, keyctl: 250 }
  : { fchmod: 52, fchmodat: 53, fchmodat2: 452, openat: 56, mknodat: 33, clone3: 435, keyctl: 219 };
const MORE = X86 ? { bpf: 321, perf: 298 } : { bpf: 280, perf: 241 };
const O_TMPFILE = 0o20200000;

const NO_PERL = (await new Deno.Command("sh", { args: ["-c", "command -v perl"], stdout: "null" }).output())
    .success
  ? undefined
  : "perl, which makes the raw system calls, is not installed";
if (NO_PERL) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`setuid attacks by raw system calls ignored: ${NO_PERL}`);
}

/** The bits that make a file run as its owner or group. */
async function setid(path: string): Promise<number> {
  return (await Deno.lstat(path)).mode! & 0o6000;
}

async function absent(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => false, () => true);
}

attackTwice(
  "cp /bin/sh Home/s; chmod u+s Home/s",
  "cp /bin/sh s && chmod u+s s 2>/dev/null || echo refused",
  "refused\n",
  async (home) => assert.equal(await setid(join(home, "s")), 0),
);

attackTwice(
  "chmod g+s on a copy of /bin/sh, and on a folder",
  "cp /bin/sh s && chmod g+s s 2>/dev/null || echo refused; mkdir d && chmod g+s d 2>/dev/null || echo refused",
  "refused\nrefused\n",
  async (home) => assert.deepEqual([await setid(join(home, "s")), await setid(join(home, "d"))], [0, 0]),
);

attackTwice(
  "chmod 4755 by each call: chmod, fchmod, fchmodat, fchmodat2",
  `cp /bin/sh s && perl -e '
    sub t { print "$_[0] ", ($_[1] < 0 ? "refused" : "set"), "\\n" }
    open(F, ">>", "s") or die; my $fd = fileno(F); my $s = "s";
    t("chmod", chmod(04755, "s") ? 0 : -1);
    t("chmod 6755", chmod(06755, "s") ? 0 : -1);
    t("fchmod", syscall(${NR.fchmod}, $fd, 04755));
    t("fchmodat", syscall(${NR.fchmodat}, -100, $s, 04755, 0));
    t("fchmodat2", syscall(${NR.fchmodat2}, -100, $s, 02755, 0));
    ${X86 ? 't("chmod(2)", syscall(90, $s, 04755));' : 't("chmod(2)", -1);'}'`,
  "chmod refused\nchmod 6755 refused\nfchmod refused\nfchmodat refused\nfchmodat2 refused\nchmod(2) refused\n",
  async (home) => assert.equal(await setid(join(home, "s")), 0),
  { needs: NO_PERL },
);

attackTwice(
  "create a file with mode 04755: open(O_CREAT), openat, creat, O_TMPFILE, mknod of a file",
  `perl -MFcntl -e '
    sub t { print "$_[0] ", ($_[1] < 0 ? "refused" : "made"), "\\n" }
    my ($a, $c, $d, $m) = ("a", "c", ".", "m");
    t("open", sysopen(F, "o", O_CREAT | O_WRONLY, 04755) ? 0 : -1);
    t("openat", syscall(${NR.openat}, -100, $a, O_CREAT | O_WRONLY, 02755));
    t("creat", ${X86 ? "syscall(85, $c, 06755)" : "-1"});
    t("O_TMPFILE", syscall(${NR.openat}, -100, $d, ${O_TMPFILE} | O_WRONLY, 04755));
    t("mknod", syscall(${NR.mknodat}, -100, $m, 0100000 | 04755, 0));
    t("open 0755", sysopen(G, "ok", O_CREAT | O_WRONLY, 0755) ? 0 : -1);'`,
  "open refused\nopenat refused\ncreat refused\nO_TMPFILE refused\nmknod refused\nopen 0755 made\n",
  async (home) => {
    for (const name of ["o", "a", "c", "m"]) assert.ok(await absent(join(home, name)), name);
    assert.equal(await setid(join(home, "ok")), 0);
  },
  { needs: NO_PERL },
);

attackTwice(
  "make device nodes (mknod c and b); a FIFO still works",
  "mknod null c 1 3 2>/dev/null || echo refused c; mknod sda b 8 0 2>/dev/null || echo refused b; " +
    "mkfifo p && echo fifo made",
  "refused c\nrefused b\nfifo made\n",
  async (home) => {
    assert.deepEqual([await absent(join(home, "null")), await absent(join(home, "sda"))], [true, true]);
    assert.equal((await Deno.lstat(join(home, "p"))).isFifo, true);
  },
);

attackTwice(
  "make a user namespace: unshare -U, unshare -r, clone3 with CLONE_NEWUSER",
  `unshare -U true 2>/dev/null || echo refused; unshare -r true 2>/dev/null || echo refused
  perl -e '$a = pack("Q11", 0x10000000); print "clone3 ", (syscall(${NR.clone3}, $a, 88) < 0 ? $! : "made"), "\\n"'`,
  "refused\nrefused\nclone3 Function not implemented\n",
  async () => {},
  { needs: NO_PERL },
);

attackTwice(
  "hard link a setuid program of the host into Home (ln /usr/bin/su)",
  'ln /usr/bin/su su 2>/dev/null || echo refused; ln "$(command -v passwd)" pw 2>/dev/null || echo refused',
  "refused\nrefused\n",
  async (home) =>
    assert.deepEqual([await absent(join(home, "su")), await absent(join(home, "pw"))], [true, true]),
);

sandboxTest("attack as root: hard link a setuid file of the person's in Home, then write it", async () => {
  await using fx = await agentFixture();
  // A setuid program the person keeps in Home: a link to it is the same file, and writing clears the bit.
  const suid = join(fx.agentHome, "suid");
  await Deno.copyFile("/bin/true", suid);
  await Deno.chmod(suid, 0o4755);
  const r = await fx.sh("ln suid link && echo linked; cat /bin/sh > link && echo written", {
    cwd: fx.agentHome,
  });
  assert.equal(r.stdout, "linked\nwritten\n", r.stderr);
  assert.equal(await setid(suid), 0);
});

const NO_SETCAP =
  (await new Deno.Command("sh", { args: ["-c", "command -v setcap"], stdout: "null" }).output())
      .success
    ? undefined
    : "setcap (libcap) is not installed";
if (NO_SETCAP) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`file capability attack ignored: ${NO_SETCAP}`);
}

attackTwice(
  "give a copy of /bin/sh file capabilities instead (setcap cap_setuid+ep)",
  "cp /bin/sh s && setcap cap_setuid+ep s 2>/dev/null || echo refused",
  "refused\n",
  async (home) => {
    const out = await new Deno.Command("getcap", { args: [join(home, "s")], stdout: "piped" }).output();
    assert.equal(new TextDecoder().decode(out.stdout), "");
  },
  { needs: NO_SETCAP },
);

attackTwice(
  "reach the kernel past the filter: io_uring, keyrings, BPF, perf, AF_ALG and AF_PACKET, setarch -R, x32",
  `perl -e '
    my $p = "\\0" x 128;
    print "io_uring_setup: ", (syscall(425, 8, $p) < 0 ? $! : "made"), "\\n";
    print "keyctl: ", (syscall(${NR.keyctl}, 0, -4, 0) < 0 ? $! : "read"), "\\n";
    print "bpf: ", (syscall(${MORE.bpf}, 0, $p, 72) < 0 ? $! : "made"), "\\n";
    print "perf_event_open: ", (syscall(${MORE.perf}, $p, 0, -1, -1, 0) < 0 ? $! : "opened"), "\\n";
    socket(S, 38, 5, 0) ? print "AF_ALG: opened\\n" : print "AF_ALG: $!\\n";
    socket(T, 17, 3, 0) ? print "AF_PACKET: opened\\n" : print "AF_PACKET: $!\\n";'
  setarch "$(uname -m)" -R true 2>/dev/null || echo "setarch -R: refused"
  ${X86 ? `perl -e 'syscall(0x40000027)' 2>/dev/null; echo "x32 getpid: $?"` : 'echo "x32 getpid: 159"'}`,
  "io_uring_setup: Function not implemented\nkeyctl: Operation not permitted\nbpf: Operation not permitted\n" +
    "perf_event_open: Operation not permitted\nAF_ALG: Address family not supported by protocol\n" +
    "AF_PACKET: Address family not supported by protocol\nsetarch -R: refused\nx32 getpid: 159\n",
  async () => {},
  { needs: NO_PERL },
);
