import { join } from "node:path";
import { LinkError } from "../core/base/mod.ts";
import { cPath, errno, libc } from "./libc.ts";
import { isWithin } from "./mount_list.ts";
import { O_CLOEXEC, O_DIRECTORY, O_NOFOLLOW, O_PATH } from "./passed_fds.ts";

const ENOENT = 2;
const AT_EMPTY_PATH = 0x1000;
const AT_SYMLINK_NOFOLLOW = 0x100;
const STATX_TYPE = 0x1;
const STATX_NLINK = 0x4;
const STATX_INO = 0x100;
const S_IFMT = 0o170000;
const MAX_LINKS = 40;
const F_DUPFD_CLOEXEC = 1030;

/** What a descriptor or name refers to. */
export type EntryType = "dir" | "file" | "symlink" | "other";

/** The type, inode, device and link count of what a descriptor refers to (statx, never following). */
export interface FdStat {
  readonly type: EntryType;
  readonly ino: bigint;
  readonly dev: string;
  readonly nlink: number;
}

/** Stats what `fd` refers to itself: an O_PATH descriptor of a link is the link. */
export function statFd(fd: number): FdStat {
  const buf = new Uint8Array(256);
  const rc = libc().statx(
    fd,
    cPath(""),
    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
    STATX_TYPE | STATX_INO | STATX_NLINK,
    buf,
  );
  if (rc !== 0) throw unavailable(`look at descriptor ${fd}`, errno());
  const view = new DataView(buf.buffer);
  const mode = view.getUint16(28, true) & S_IFMT;
  const type = mode === 0o040000
    ? "dir"
    : mode === 0o100000
    ? "file"
    : mode === 0o120000
    ? "symlink"
    : "other";
  return {
    type,
    ino: view.getBigUint64(32, true),
    dev: `${view.getUint32(136, true)}:${view.getUint32(140, true)}`,
    nlink: view.getUint32(16, true),
  };
}

/** A name in the folder open at `dir`, as a path the kernel resolves through that descriptor alone. */
export function fdPath(dir: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dir}` : `/proc/self/fd/${dir}/${name}`;
}

/** Opens `name` in the folder open at `dir` as an O_PATH descriptor of the name itself (a link is not followed). */
export function openEntry(dir: number, name: string): number | undefined {
  const fd = libc().openat(dir, cPath(name), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return fd;
  const code = errno();
  if (code === ENOENT) return undefined;
  throw unavailable(`open "${name}"`, code);
}

/** Closes a descriptor this walk opened. */
export function closeFd(fd: number): void {
  libc().close(fd);
}

/** How walkNoFollow goes. */
export interface WalkOptions {
  /** Real paths some sandbox can write: a link in one (at or below it) is refused, never followed. */
  readonly writable: readonly string[];
  /** What the walk leads to, for a refusal: `the grant "~/src"`. */
  readonly what: string;
  /** Makes missing parts as folders with this mode (mkdir -p), each made in its parent's descriptor. */
  readonly make?: number;
  /** Walks `path` (then relative) from this open folder, which stays open; ".." never leaves it. */
  readonly from?: { readonly fd: number; readonly path: string };
  /** Called with each folder the walk makes (with `make`). */
  readonly made?: (path: string) => void;
  /** The refusal of a link, when not symlinkRefusal's. */
  readonly refusal?: (link: string) => LinkError;
}

/** Where a walk ended. */
export interface Walked {
  /** The real path: every part reached without a link, or through one the person made outside `writable`. */
  readonly real: string;
  /** An O_PATH descriptor (close-on-exec, the caller's to close) of what is there; undefined when missing. */
  readonly fd: number | undefined;
  readonly type: EntryType | "missing";
}

/**
 * Resolves an absolute path one part at a time, each opened in its parent's descriptor without
 * following a link (LAY-9, SBX-21): a link in a place some sandbox can write is refused with
 * SYMLINK_REFUSED naming it, since an agent could have made it; one elsewhere (the person's own,
 * such as ~/code -> /data/code) is followed, and the walk goes on from its target under the same
 * rule. The descriptor returned is what was checked, so a swap after the check changes nothing.
 */
export function walkNoFollow(path: string, options: WalkOptions): Walked {
  const base = options.from ?? { fd: openRoot(), path: "/" };
  const stack: { fd: number; path: string }[] = [base];
  const rest = parts(path);
  let links = 0;
  try {
    while (rest.length) {
      const name = rest.shift()!;
      const top = stack[stack.length - 1]!;
      if (name === "..") {
        if (stack.length > 1 && stack[stack.length - 1] !== base) closeFd(stack.pop()!.fd);
        continue;
      }
      const child = under(top.path, name);
      let fd = openEntry(top.fd, name);
      if (fd === undefined && options.make !== undefined) {
        fd = makeFolder(top.fd, name, options.make);
        options.made?.(child);
      }
      if (fd === undefined) return { real: join(child, ...rest), fd: undefined, type: "missing" };
      const { type } = statFd(fd);
      if (type === "symlink") {
        closeFd(fd);
        const refuse = () => options.refusal?.(child) ?? symlinkRefusal(child, options.what);
        if (options.writable.some((w) => isWithin(top.path, w))) throw refuse();
        if (++links > MAX_LINKS) {
          throw new LinkError(
            "SANDBOX_REFUSED",
            `Cannot start the sandbox: "${path}" leads through too many links`,
          );
        }
        const target = Deno.readLinkSync(fdPath(top.fd, name));
        if (options.from) throw refuse();
        if (target.startsWith("/")) { while (stack.length > 1) closeFd(stack.pop()!.fd); }
        rest.unshift(...parts(target));
        continue;
      }
      stack.push({ fd, path: child });
      if (type !== "dir" && rest.some((p) => p !== "" && p !== ".")) {
        throw new LinkError(
          "SANDBOX_REFUSED",
          `Cannot start the sandbox: "${child}" is not a folder, on the way to ${options.what}`,
        );
      }
    }
    if (stack.length === 1) return { real: base.path, fd: dupFd(base.fd), type: statFd(base.fd).type };
    const last = stack.pop()!;
    return { real: last.path, fd: last.fd, type: statFd(last.fd).type };
  } finally {
    for (const { fd } of stack) if (fd !== options.from?.fd) closeFd(fd);
  }
}

function openRoot(): number {
  const fd = libc().openat(-100, cPath("/"), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw unavailable('open "/"', errno());
  return fd;
}

/** A close-on-exec copy of `fd`. */
function dupFd(fd: number): number {
  const copy = libc().fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) throw unavailable(`copy descriptor ${fd}`, errno());
  return copy;
}

/** The refusal of a link an agent could have made, naming it. */
export function symlinkRefusal(link: string, what: string): LinkError {
  return new LinkError(
    "SYMLINK_REFUSED",
    `Cannot start the sandbox: "${link}" is a symbolic link in a place an agent can write, on the way to ${what}`,
    {
      hint:
        `Link never follows a link an agent could have made: remove "${link}" (or put the real folder there), ` +
        "or grant the place it leads to by its own path, then start again",
    },
  );
}

function makeFolder(dir: number, name: string, mode: number): number | undefined {
  try {
    Deno.mkdirSync(fdPath(dir, name), { mode });
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  }
  return openEntry(dir, name);
}

function parts(path: string): string[] {
  return path.split("/").filter((p) => p !== "" && p !== ".");
}

function under(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

function unavailable(what: string, code: number): LinkError {
  return new LinkError("SANDBOX_UNAVAILABLE", `Cannot start a sandbox: cannot ${what} (errno ${code})`, {
    hint: "Run lnk with all permissions on Linux 4.11 or later",
  });
}
