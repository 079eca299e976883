import { LinkError } from "../core/base/mod.ts";
import { basename } from "node:path";
import type { PassedFds } from "./passed_fds.ts";
import { assembleBpf, type BpfInstruction, type BpfStep, encodeBpf } from "./bpf.ts";

/** The architecture words of struct seccomp_data (linux/audit.h) this filter knows. */
export const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 } as const;
/** x86_64's x32 system calls carry this bit in their number. */
export const X32_SYSCALL_BIT = 0x40000000;

/** What the filter answers (linux/seccomp.h). */
export const SECCOMP_RET = { killProcess: 0x80000000, errno: 0x00050000, allow: 0x7fff0000 } as const;
export const EPERM = 1;
export const ENOSYS = 38;
export const EOPNOTSUPP = 95;
export const EAFNOSUPPORT = 97;

const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
/** The bit S_IFCHR and S_IFBLK share, and no other file type mknod makes (FIFO, socket, file). */
const S_IFCHR_BIT = 0o20000;
const O_CREAT = 0o100;
const O_TMPFILE_BIT = 0o20000000;
/** Every namespace clone(2) and unshare(2) make; CLONE_NEWTIME (0x80) is unshare's alone. */
const CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 |
  0x40000000;
const CLONE_NEWTIME = 0x80;
const FALLOC_FL_KEEP_SIZE = 0x01;
const FALLOC_FL_PUNCH_HOLE = 0x02;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
/** personality(2) values a program may ask: Linux, 32-bit Linux, uname 2.6, and asking only. */
const PERSONALITIES = [0, 0x0008, 0x20000, 0x20008, 0xffffffff];
/** socket(2) families: none, unix, IPv4, IPv6, netlink (interfaces, routes). */
const FAMILIES = [0, 1, 2, 10, 16];

/** A test of one argument's low 32 bits (every argument read here is an int, mode or flags). */
export type ArgTest =
  | { readonly arg: number; readonly any: number }
  | { readonly arg: number; readonly none: number }
  | { readonly arg: number; readonly oneOf: readonly number[] }
  | { readonly arg: number; readonly noneOf: readonly number[] };

/** A system call refused with `errno`, always or when every test holds. */
export interface SeccompRule {
  readonly call: string;
  readonly errno: number;
  readonly when?: readonly ArgTest[];
}

const SETID = { any: S_ISUID | S_ISGID };

/**
 * What a sandbox may not do, by system call name, for every architecture (numbers below):
 * set the setuid or setgid bit, on an existing file or one created; make a device node; make a
 * namespace (a user namespace above all); inject keystrokes into a terminal; allocate disk a file
 * size bound does not see (fallocate keeping the size); and what Flatpak's filter refuses that
 * costs Link nothing: io_uring (its operations pass by this filter), clone3 (its flags are out of
 * reach; ENOSYS so the C library falls back to clone), the mount API, the kernel's keyrings, its
 * log, modules, kexec, BPF, perf, userfaultfd, quotas, accounting, swap, reboot, odd personalities
 * and socket families beyond unix, IP and netlink.
 */
export const SECCOMP_RULES: readonly SeccompRule[] = [
  { call: "chmod", errno: EPERM, when: [{ arg: 1, ...SETID }] },
  { call: "fchmod", errno: EPERM, when: [{ arg: 1, ...SETID }] },
  { call: "fchmodat", errno: EPERM, when: [{ arg: 2, ...SETID }] },
  { call: "fchmodat2", errno: EPERM, when: [{ arg: 2, ...SETID }] },
  { call: "open", errno: EPERM, when: [{ arg: 1, any: O_CREAT | O_TMPFILE_BIT }, { arg: 2, ...SETID }] },
  { call: "openat", errno: EPERM, when: [{ arg: 2, any: O_CREAT | O_TMPFILE_BIT }, { arg: 3, ...SETID }] },
  { call: "creat", errno: EPERM, when: [{ arg: 1, ...SETID }] },
  // Its flags are in memory this filter cannot read.
  { call: "openat2", errno: ENOSYS },
  { call: "mknod", errno: EPERM, when: [{ arg: 1, any: S_IFCHR_BIT | S_ISUID | S_ISGID }] },
  { call: "mknodat", errno: EPERM, when: [{ arg: 2, any: S_IFCHR_BIT | S_ISUID | S_ISGID }] },
  { call: "clone", errno: EPERM, when: [{ arg: 0, any: CLONE_NEW }] },
  { call: "clone3", errno: ENOSYS },
  { call: "unshare", errno: EPERM, when: [{ arg: 0, any: CLONE_NEW | CLONE_NEWTIME }] },
  { call: "setns", errno: EPERM },
  { call: "ioctl", errno: EPERM, when: [{ arg: 1, oneOf: [TIOCSTI, TIOCLINUX] }] },
  {
    call: "fallocate",
    errno: EOPNOTSUPP,
    when: [{ arg: 1, any: FALLOC_FL_KEEP_SIZE }, { arg: 1, none: FALLOC_FL_PUNCH_HOLE }],
  },
  { call: "personality", errno: EPERM, when: [{ arg: 0, noneOf: PERSONALITIES }] },
  { call: "socket", errno: EAFNOSUPPORT, when: [{ arg: 0, noneOf: FAMILIES }] },
  ...[
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_tree",
    "open_tree_attr",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
  ].map((call) => ({ call, errno: ENOSYS })),
  ...[
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "perf_event_open",
    "bpf",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "syslog",
    "acct",
    "quotactl",
    "quotactl_fd",
    "add_key",
    "request_key",
    "keyctl",
    "uselib",
    "modify_ldt",
    "iopl",
    "ioperm",
    "reboot",
    "swapon",
    "swapoff",
  ].map((call) => ({ call, errno: EPERM })),
];

/** System call numbers, [x86_64, aarch64]; null where the architecture has no such call. */
export const SYSCALLS: Readonly<Record<string, readonly [number | null, number | null]>> = {
  chmod: [90, null],
  fchmod: [91, 52],
  fchmodat: [268, 53],
  fchmodat2: [452, 452],
  open: [2, null],
  openat: [257, 56],
  creat: [85, null],
  openat2: [437, 437],
  mknod: [133, null],
  mknodat: [259, 33],
  clone: [56, 220],
  clone3: [435, 435],
  unshare: [272, 97],
  setns: [308, 268],
  ioctl: [16, 29],
  fallocate: [285, 47],
  personality: [135, 92],
  socket: [41, 198],
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  open_tree: [428, 428],
  open_tree_attr: [467, 467],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  chroot: [161, 51],
  perf_event_open: [298, 241],
  bpf: [321, 280],
  userfaultfd: [323, 282],
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  syslog: [103, 116],
  acct: [163, 89],
  quotactl: [179, 60],
  quotactl_fd: [443, 443],
  add_key: [248, 217],
  request_key: [249, 218],
  keyctl: [250, 219],
  uselib: [134, null],
  modify_ldt: [154, null],
  iopl: [172, null],
  ioperm: [173, null],
  reboot: [169, 142],
  swapon: [167, 224],
  swapoff: [168, 225],
};

/** The offsets of struct seccomp_data: nr, arch, then six 64-bit arguments after the pointer. */
const NR = 0;
const ARCH = 4;
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const argLow = (arg: number) => 16 + 8 * arg + (LITTLE ? 0 : 4);

/**
 * The sandbox's seccomp program (classic BPF, for bubblewrap's --seccomp): the rules above on
 * x86_64 and aarch64, whichever this machine runs; an x32 call or one of any other architecture
 * (i386 by int 0x80) kills the process, so no second table of numbers slips past. Pure.
 */
export function seccompProgram(rules: readonly SeccompRule[] = SECCOMP_RULES): BpfInstruction[] {
  const steps: BpfStep[] = [
    { op: "ld", offset: ARCH },
    { op: "jeq", k: AUDIT_ARCH.x86_64, yes: "x86_64" },
    { op: "jeq", k: AUDIT_ARCH.aarch64, yes: "to aarch64" },
    { op: "ret", k: SECCOMP_RET.killProcess },
    { op: "label", name: "to aarch64" },
    { op: "ja", to: "aarch64" },
    { op: "label", name: "x86_64" },
    { op: "ld", offset: NR },
    { op: "jge", k: X32_SYSCALL_BIT, no: "x86_64 calls" },
    { op: "ret", k: SECCOMP_RET.killProcess },
    { op: "label", name: "x86_64 calls" },
    ...archSteps("x86_64", 0, rules),
    { op: "label", name: "aarch64" },
    { op: "ld", offset: NR },
    ...archSteps("aarch64", 1, rules),
  ];
  return assembleBpf(steps);
}

let bytes: Uint8Array<ArrayBuffer> | undefined;

/** The program's bytes, as bubblewrap reads them from its --seccomp descriptor. */
export function seccompFilter(): Uint8Array<ArrayBuffer> {
  bytes ??= encodeBpf(seccompProgram());
  return bytes;
}

/**
 * bubblewrap's command line with `--seccomp FD` right after bubblewrap itself, FD an in-memory
 * file of the filter among `fds` (whatever runs bubblewrap, such as setpriv, comes before it).
 */
export function withSeccomp(argv: readonly string[], fds: PassedFds): string[] {
  const at = argv.findIndex((arg) => basename(arg) === "bwrap");
  if (at < 0) {
    throw new LinkError("INTERNAL", "Cannot filter the sandbox's system calls: bubblewrap is not run");
  }
  const fd = fds.memfd("lnk-seccomp", seccompFilter());
  return [...argv.slice(0, at + 1), "--seccomp", String(fd), ...argv.slice(at + 1)];
}

/** One architecture's calls, A holding the call's number: each call's rules, then allow. */
function archSteps(arch: string, column: 0 | 1, rules: readonly SeccompRule[]): BpfStep[] {
  const byNumber = new Map<number, SeccompRule[]>();
  for (const rule of rules) {
    const nr = SYSCALLS[rule.call]?.[column];
    if (nr === undefined) {
      throw new LinkError(
        "INTERNAL",
        `Cannot build the sandbox's system call filter: no number for "${rule.call}"`,
      );
    }
    if (nr !== null) byNumber.set(nr, [...byNumber.get(nr) ?? [], rule]);
  }
  const steps: BpfStep[] = [];
  for (const [nr, mine] of byNumber) {
    const next = `${arch} after ${nr}`;
    steps.push({ op: "jeq", k: nr, no: next });
    mine.forEach((rule, i) => {
      const pass = `${arch} ${nr} rule ${i} passes`;
      (rule.when ?? []).forEach((test, j) => steps.push(...testSteps(test, pass, `${arch} ${nr} ${i} ${j}`)));
      steps.push({ op: "ret", k: SECCOMP_RET.errno | rule.errno });
      steps.push({ op: "label", name: pass });
    });
    steps.push({ op: "ret", k: SECCOMP_RET.allow });
    steps.push({ op: "label", name: next });
  }
  steps.push({ op: "ret", k: SECCOMP_RET.allow });
  return steps;
}

/** Falls through when the test holds, else jumps to `fails`. */
function testSteps(test: ArgTest, fails: string, tag: string): BpfStep[] {
  const load: BpfStep = { op: "ld", offset: argLow(test.arg) };
  if ("any" in test) return [load, { op: "jset", k: test.any, no: fails }];
  if ("none" in test) return [load, { op: "jset", k: test.none, yes: fails }];
  if ("noneOf" in test) return [load, ...test.noneOf.map((k): BpfStep => ({ op: "jeq", k, yes: fails }))];
  const holds = `${tag} holds`;
  const last = test.oneOf.length - 1;
  return [
    load,
    ...test.oneOf.map((k, i): BpfStep => ({
      op: "jeq",
      k,
      yes: holds,
      ...(i === last ? { no: fails } : {}),
    })),
    { op: "label", name: holds },
  ];
}
