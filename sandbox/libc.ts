import { LinkError } from "../core/base/mod.ts";

/** The C library's calls the sandbox makes that Deno has no API for, opened once. */
export interface Libc {
  close_range?: (first: number, last: number, flags: number) => number;
  fcntl: (fd: number, cmd: number, arg: number) => number;
  memfd_create: (name: Uint8Array<ArrayBuffer>, flags: number) => number;
  write: (fd: number, buf: Uint8Array<ArrayBuffer>, count: bigint) => bigint;
  lseek: (fd: number, offset: bigint, whence: number) => bigint;
  open: (path: Uint8Array<ArrayBuffer>, flags: number) => number;
  openat: (dirfd: number, path: Uint8Array<ArrayBuffer>, flags: number) => number;
  close: (fd: number) => number;
  /** renameat2(2), GNU C library 2.28 and later: RENAME_NOREPLACE puts a folder in place only where none is. */
  renameat2?: (
    fromDir: number,
    from: Uint8Array<ArrayBuffer>,
    toDir: number,
    to: Uint8Array<ArrayBuffer>,
    flags: number,
  ) => number;
  /** GNU C library 2.33 and later. */
  mknodat?: (dirfd: number, path: Uint8Array<ArrayBuffer>, mode: number, dev: bigint) => number;
  /** open_tree(2), by number (428 on every architecture). */
  open_tree: (nr: bigint, dirfd: number, path: Uint8Array<ArrayBuffer>, flags: number) => bigint;
  /** move_mount(2) (429). */
  move_mount: (
    nr: bigint,
    fromDir: number,
    from: Uint8Array<ArrayBuffer>,
    toDir: number,
    to: Uint8Array<ArrayBuffer>,
    flags: number,
  ) => bigint;
  /** mount_setattr(2) (442). */
  mount_setattr: (
    nr: bigint,
    dirfd: number,
    path: Uint8Array<ArrayBuffer>,
    flags: number,
    attr: Uint8Array<ArrayBuffer>,
    size: bigint,
  ) => bigint;
  umount2: (target: Uint8Array<ArrayBuffer>, flags: number) => number;
  statx: (
    dirfd: number,
    path: Uint8Array<ArrayBuffer>,
    flags: number,
    mask: number,
    buf: Uint8Array<ArrayBuffer>,
  ) => number;
  __errno_location: () => Deno.PointerValue;
}

const SYMBOLS = {
  close_range: { parameters: ["u32", "u32", "i32"], result: "i32", optional: true },
  fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
  memfd_create: { parameters: ["buffer", "u32"], result: "i32" },
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  lseek: { parameters: ["i32", "i64", "i32"], result: "i64" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  openat: { parameters: ["i32", "buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  renameat2: { parameters: ["i32", "buffer", "i32", "buffer", "u32"], result: "i32", optional: true },
  mknodat: { parameters: ["i32", "buffer", "u32", "u64"], result: "i32", optional: true },
  open_tree: { name: "syscall", parameters: ["i64", "i32", "buffer", "u32"], result: "i64" },
  move_mount: {
    name: "syscall",
    parameters: ["i64", "i32", "buffer", "i32", "buffer", "u32"],
    result: "i64",
  },
  mount_setattr: {
    name: "syscall",
    parameters: ["i64", "i32", "buffer", "u32", "buffer", "usize"],
    result: "i64",
  },
  umount2: { parameters: ["buffer", "i32"], result: "i32" },
  statx: { parameters: ["i32", "buffer", "i32", "u32", "buffer"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

let opened: Libc | undefined;

/**
 * The C library, opened at the first call. SANDBOX_UNAVAILABLE when it cannot be: a sandbox is
 * never started without what these calls make sure of.
 */
export function libc(): Libc {
  if (opened) return opened;
  try {
    opened = Deno.dlopen("libc.so.6", SYMBOLS).symbols as unknown as Libc;
    return opened;
  } catch (err) {
    throw new LinkError("SANDBOX_UNAVAILABLE", "Cannot start a sandbox: the C library cannot be opened", {
      hint: "Run lnk with all permissions on a system with the GNU C library",
      cause: err,
    });
  }
}

/** The last call's errno. */
export function errno(): number {
  const at = libc().__errno_location();
  return at === null ? 0 : new Deno.UnsafePointerView(at).getInt32();
}

/** A path as the C library takes it: NUL-terminated bytes. */
export function cPath(path: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${path}\0`);
}
