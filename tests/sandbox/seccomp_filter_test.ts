import assert from "node:assert/strict";
import { assembleBpf, BPF, type BpfInstruction, encodeBpf } from "../../sandbox/bpf.ts";
import {
  AUDIT_ARCH,
  EAFNOSUPPORT,
  ENOSYS,
  EOPNOTSUPP,
  EPERM,
  SECCOMP_RET,
  SECCOMP_RULES,
  seccompProgram,
  SYSCALLS,
  X32_SYSCALL_BIT,
} from "../../sandbox/seccomp_filter.ts";

type Arch = keyof typeof AUDIT_ARCH;

/** Runs a classic BPF program over a struct seccomp_data, as the kernel does. */
function runBpf(program: readonly BpfInstruction[], data: DataView): number {
  let a = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === BPF.ld) a = data.getUint32(k, true);
    else if (code === BPF.ja) pc += k;
    else if (code === BPF.jeq) pc += a === k ? jt : jf;
    else if (code === BPF.jge) pc += a >= k ? jt : jf;
    else if (code === BPF.jset) pc += (a & k) !== 0 ? jt : jf;
    else if (code === BPF.ret) return k;
    else throw new Error(`unknown opcode ${code}`);
  }
  throw new Error("the program ran off its end");
}

const PROGRAM = seccompProgram();

/** What the filter answers for a call by name (or number) on `arch`, its arguments 64-bit. */
function answer(arch: Arch, call: string | number, args: readonly bigint[] = [], archWord?: number): string {
  const nr = typeof call === "number" ? call : SYSCALLS[call]![arch === "x86_64" ? 0 : 1];
  assert.notEqual(nr, null, `${call} has no number on ${arch}`);
  const data = new DataView(new ArrayBuffer(64));
  data.setUint32(0, nr!, true);
  data.setUint32(4, archWord ?? AUDIT_ARCH[arch], true);
  args.forEach((arg, i) => data.setBigUint64(16 + 8 * i, BigInt.asUintN(64, arg), true));
  const ret = runBpf(PROGRAM, data) >>> 0;
  if (ret === SECCOMP_RET.allow) return "allow";
  if (ret === SECCOMP_RET.killProcess) return "kill";
  if ((ret & 0xffff0000) === SECCOMP_RET.errno) {
    const errno = ret & 0xffff;
    return {
      [EPERM]: "EPERM",
      [ENOSYS]: "ENOSYS",
      [EOPNOTSUPP]: "EOPNOTSUPP",
      [EAFNOSUPPORT]: "EAFNOSUPPORT",
    }[
      errno
    ] ?? `errno ${errno}`;
  }
  return `0x${ret.toString(16)}`;
}

const BOTH: readonly Arch[] = ["x86_64", "aarch64"];
const n = (v: number) => BigInt(v);

Deno.test("seccompProgram() refuses the setuid and setgid bits by each chmod call, other modes allowed", () => {
  for (const arch of BOTH) {
    const calls: [string, number][] = [["fchmod", 1], ["fchmodat", 2], ["fchmodat2", 2]];
    if (arch === "x86_64") calls.push(["chmod", 1]);
    for (const [call, at] of calls) {
      const mode = (m: number) =>
        answer(arch, call, Array.from({ length: at + 1 }, (_, i) => n(i === at ? m : 3)));
      assert.deepEqual(
        [mode(0o4755), mode(0o2755), mode(0o6777), mode(0o755), mode(0o1777), mode(0o644)],
        ["EPERM", "EPERM", "EPERM", "allow", "allow", "allow"],
        `${call} on ${arch}`,
      );
    }
  }
});

Deno.test("seccompProgram() refuses a file created with the setuid or setgid bit (open, openat, creat, O_TMPFILE)", () => {
  const O_CREAT = 0o100;
  const O_TMPFILE = 0o20200000;
  const O_WRONLY = 1;
  for (const arch of BOTH) {
    const openat = (flags: number, mode: number) => answer(arch, "openat", [n(-100), 0n, n(flags), n(mode)]);
    assert.deepEqual(
      [
        openat(O_CREAT | O_WRONLY, 0o4755),
        openat(O_CREAT, 0o2755),
        openat(O_TMPFILE | O_WRONLY, 0o4755),
        openat(O_CREAT | O_WRONLY, 0o755),
        // Without O_CREAT the mode is not looked at by the kernel, nor here.
        openat(O_WRONLY, 0o4755),
      ],
      ["EPERM", "EPERM", "EPERM", "allow", "allow"],
      arch,
    );
    assert.equal(answer(arch, "openat2"), "ENOSYS");
  }
  assert.deepEqual(
    [
      answer("x86_64", "open", [0n, n(O_CREAT), n(0o4755)]),
      answer("x86_64", "open", [0n, n(O_CREAT), n(0o644)]),
      answer("x86_64", "creat", [0n, n(0o6755)]),
      answer("x86_64", "creat", [0n, n(0o755)]),
    ],
    ["EPERM", "allow", "EPERM", "allow"],
  );
});

Deno.test("seccompProgram() refuses character and block devices and setuid files by mknod; FIFOs, sockets and files pass", () => {
  const S_IFIFO = 0o10000, S_IFCHR = 0o20000, S_IFBLK = 0o60000, S_IFREG = 0o100000, S_IFSOCK = 0o140000;
  const kinds = [
    S_IFCHR | 0o600,
    S_IFBLK | 0o600,
    S_IFREG | 0o4755,
    S_IFIFO | 0o600,
    S_IFSOCK | 0o600,
    S_IFREG | 0o644,
    0o644,
  ];
  const expected = ["EPERM", "EPERM", "EPERM", "allow", "allow", "allow", "allow"];
  for (const arch of BOTH) {
    assert.deepEqual(kinds.map((m) => answer(arch, "mknodat", [n(-100), 0n, n(m), 0x103n])), expected, arch);
  }
  assert.deepEqual(kinds.map((m) => answer("x86_64", "mknod", [0n, n(m), 0x103n])), expected);
});

Deno.test("seccompProgram() refuses new namespaces by clone and unshare, answers clone3 ENOSYS, lets threads and forks be", () => {
  const CLONE_NEWUSER = 0x10000000, CLONE_NEWNET = 0x40000000, CLONE_NEWNS = 0x20000, CLONE_NEWTIME = 0x80;
  const THREAD = 0x3d0f00; // glibc's pthread_create
  const SIGCHLD = 17;
  for (const arch of BOTH) {
    assert.deepEqual(
      [
        answer(arch, "clone", [n(CLONE_NEWUSER | SIGCHLD)]),
        answer(arch, "clone", [n(CLONE_NEWNET | SIGCHLD)]),
        answer(arch, "clone", [n(THREAD)]),
        answer(arch, "clone", [n(SIGCHLD)]),
        // The low byte of clone's flags is the exit signal, never CLONE_NEWTIME.
        answer(arch, "clone", [n(0x80 | SIGCHLD)]),
        answer(arch, "clone3", [0n, 88n]),
        answer(arch, "unshare", [n(CLONE_NEWUSER)]),
        answer(arch, "unshare", [n(CLONE_NEWNS)]),
        answer(arch, "unshare", [n(CLONE_NEWTIME)]),
        answer(arch, "unshare", [n(0x400)]), // CLONE_FILES
        answer(arch, "setns", [3n, 0n]),
      ],
      ["EPERM", "EPERM", "allow", "allow", "allow", "ENOSYS", "EPERM", "EPERM", "EPERM", "allow", "EPERM"],
      arch,
    );
  }
});

Deno.test("seccompProgram() refuses TIOCSTI and TIOCLINUX whatever the upper bits, other ioctls pass", () => {
  for (const arch of BOTH) {
    assert.deepEqual(
      [
        answer(arch, "ioctl", [0n, 0x5412n]),
        answer(arch, "ioctl", [0n, 0x1_0000_5412n]), // the kernel reads an unsigned int
        answer(arch, "ioctl", [0n, 0x541cn]),
        answer(arch, "ioctl", [0n, 0x541bn]), // FIONREAD
        answer(arch, "ioctl", [0n, 0x5413n]), // TIOCGWINSZ
      ],
      ["EPERM", "EPERM", "EPERM", "allow", "allow"],
      arch,
    );
  }
});

Deno.test("seccompProgram() refuses fallocate keeping the size (disk no file size bound sees); punching holes passes", () => {
  for (const arch of BOTH) {
    const mode = (m: number) => answer(arch, "fallocate", [3n, n(m), 0n, 1n << 40n]);
    assert.deepEqual([mode(0), mode(1), mode(0x11), mode(3), mode(0x10)], [
      "allow",
      "EOPNOTSUPP",
      "EOPNOTSUPP",
      "allow",
      "allow",
    ], arch);
  }
});

Deno.test("seccompProgram() allows the usual personalities and socket families, refusing the rest", () => {
  for (const arch of BOTH) {
    const persona = (p: number) => answer(arch, "personality", [n(p)]);
    assert.deepEqual(
      [persona(0), persona(8), persona(0xffffffff), persona(0x0040000), persona(0x0400000)],
      ["allow", "allow", "allow", "EPERM", "EPERM"],
      arch,
    );
    const family = (f: number) => answer(arch, "socket", [n(f), 1n, 0n]);
    assert.deepEqual(
      [family(1), family(2), family(10), family(16), family(17), family(38), family(40)],
      ["allow", "allow", "allow", "allow", "EAFNOSUPPORT", "EAFNOSUPPORT", "EAFNOSUPPORT"],
      arch,
    );
  }
});

Deno.test("seccompProgram() refuses io_uring, the mount API, modules, kexec, BPF, perf and the keyrings always", () => {
  const always = SECCOMP_RULES.filter((r) => !r.when).map((r) => r.call);
  for (const arch of BOTH) {
    for (const call of always) {
      if (SYSCALLS[call]![arch === "x86_64" ? 0 : 1] === null) continue;
      const rule = SECCOMP_RULES.find((r) => r.call === call)!;
      assert.equal(
        answer(arch, call, [0n, 0n, 0n]),
        rule.errno === ENOSYS ? "ENOSYS" : "EPERM",
        `${call} ${arch}`,
      );
    }
  }
  assert.deepEqual(
    ["io_uring_setup", "bpf", "keyctl", "finit_module", "kexec_load", "perf_event_open", "mount", "fsopen"]
      .map((c) => answer("x86_64", c)),
    ["ENOSYS", "EPERM", "EPERM", "EPERM", "EPERM", "EPERM", "EPERM", "ENOSYS"],
  );
});

Deno.test("seccompProgram() allows what a program does all day, on each architecture", () => {
  // read, write, mmap, futex, execve, exit_group; and chmod's x86_64 number on aarch64 (capget).
  const x86 = [0, 1, 9, 202, 59, 231].map((nr) => answer("x86_64", nr, [3n, 0o4755n, 0o4755n, 0o4755n]));
  const arm = [63, 64, 222, 98, 221, 94, 90].map((nr) =>
    answer("aarch64", nr, [3n, 0o4755n, 0o4755n, 0o4755n])
  );
  assert.deepEqual([...x86, ...arm], Array(13).fill("allow"));
});

Deno.test("seccompProgram() kills x32 calls and every other architecture (i386 by int 0x80, arm)", () => {
  assert.deepEqual(
    [
      answer("x86_64", X32_SYSCALL_BIT | 1),
      answer("x86_64", X32_SYSCALL_BIT | 90, [0n, 0o4755n]),
      answer("x86_64", 15, [], 0x40000003), // AUDIT_ARCH_I386: chmod is 15 there
      answer("x86_64", 1, [], 0x40000028), // AUDIT_ARCH_ARM
      answer("x86_64", 1, [], 0),
    ],
    ["kill", "kill", "kill", "kill", "kill"],
  );
});

Deno.test("seccompProgram() names only calls it has numbers for, and fits the kernel's bound", () => {
  for (const rule of SECCOMP_RULES) assert.ok(SYSCALLS[rule.call], rule.call);
  assert.ok(PROGRAM.length < 4096);
});

Deno.test("encodeBpf() lays each instruction out as struct sock_filter: code, jt, jf, k", () => {
  const bytes = encodeBpf([{ code: BPF.jeq, jt: 2, jf: 5, k: 0xc000003e }]);
  assert.deepEqual([...bytes], [0x15, 0, 2, 5, 0x3e, 0, 0, 0xc0]);
  // The program starts by loading the architecture word.
  assert.deepEqual([...encodeBpf(PROGRAM).subarray(0, 8)], [0x20, 0, 0, 0, 4, 0, 0, 0]);
});

Deno.test("assembleBpf() refuses a label placed twice or never, and a conditional jump beyond 255", () => {
  assert.throws(() => assembleBpf([{ op: "jeq", k: 1, yes: "x" }, { op: "ret", k: 0 }]), {
    code: "INTERNAL",
  });
  assert.throws(
    () => assembleBpf([{ op: "label", name: "x" }, { op: "label", name: "x" }, { op: "ret", k: 0 }]),
    { code: "INTERNAL" },
  );
  const far = [
    { op: "jeq" as const, k: 1, yes: "end" },
    ...Array.from({ length: 256 }, () => ({ op: "ret" as const, k: 0 })),
    { op: "label" as const, name: "end" },
    { op: "ret" as const, k: 1 },
  ];
  assert.throws(() => assembleBpf(far), { code: "INTERNAL" });
  assert.equal(assembleBpf([{ op: "ja", to: "end" }, ...far.slice(1)])[0]!.k, 256);
});
