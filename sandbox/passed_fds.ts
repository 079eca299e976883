import { LinkError } from "../core/base/mod.ts";
import { cPath, errno, libc } from "./libc.ts";

/** open(2) flags the sandbox uses (linux/fcntl.h; the same on x86_64 and aarch64 but O_DIRECTORY). */
export const O_RDONLY = 0;
export const O_NOFOLLOW = Deno.build.arch === "aarch64" ? 0o100000 : 0o400000;
export const O_DIRECTORY = Deno.build.arch === "aarch64" ? 0o40000 : 0o200000;
export const O_CLOEXEC = 0o2000000;
export const O_PATH = 0o10000000;

const F_DUPFD = 0;
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

/**
 * Descriptors handed to bubblewrap by number (`--seccomp FD`, `--bind-fd FD DEST`): each is open
 * without close-on-exec, so the next program this process starts inherits it, and is closed here
 * again once that program has started. Make them, start bubblewrap and dispose in one synchronous
 * stretch, after closeInheritedFds(): no other program this process starts gets them.
 */
export class PassedFds implements Disposable {
  #fds: number[] = [];

  /** The descriptors made so far. */
  get fds(): readonly number[] {
    return this.#fds;
  }

  /** An in-memory file holding `bytes`, read from its start (memfd_create). */
  memfd(name: string, bytes: Uint8Array<ArrayBuffer>): number {
    const c = libc();
    const fd = this.#keep(c.memfd_create(cPath(name), 0), `make the in-memory file "${name}"`);
    let written = 0;
    while (written < bytes.length) {
      const n = Number(c.write(fd, bytes.subarray(written), BigInt(bytes.length - written)));
      if (n <= 0) throw unavailable(`write the in-memory file "${name}"`, errno());
      written += n;
    }
    if (c.lseek(fd, 0n, 0) !== 0n) throw unavailable(`rewind the in-memory file "${name}"`, errno());
    return fd;
  }

  /** Opens `path` (absolute) with `flags`; close-on-exec is never among them. */
  open(path: string, flags: number): number {
    return this.#keep(libc().open(cPath(path), flags & ~O_CLOEXEC), `open "${path}"`);
  }

  /** Opens `name` in the folder open at `dir` with `flags`, or -1 with its errno when it fails. */
  openAt(dir: number, name: string, flags: number): { fd: number; errno: number } {
    const fd = libc().openat(dir, cPath(name), flags & ~O_CLOEXEC);
    if (fd < 0) return { fd, errno: errno() };
    this.#fds.push(fd);
    return { fd, errno: 0 };
  }

  /** A copy of `fd` (one this process opened close-on-exec) for the next program: the same open file. */
  dup(fd: number): number {
    return this.#keep(libc().fcntl(fd, F_DUPFD, 3), `copy descriptor ${fd}`);
  }

  /** Closes `fd` now, if it is one of these. */
  close(fd: number): void {
    const at = this.#fds.indexOf(fd);
    if (at < 0) return;
    this.#fds.splice(at, 1);
    libc().close(fd);
  }

  [Symbol.dispose](): void {
    for (const fd of this.#fds.splice(0)) libc().close(fd);
  }

  #keep(fd: number, what: string): number {
    if (fd < 0) throw unavailable(what, errno());
    const c = libc();
    // Made without O_CLOEXEC, but said again: a descriptor marked since must still reach bubblewrap.
    const flags = c.fcntl(fd, F_GETFD, 0);
    if (flags >= 0 && flags & FD_CLOEXEC) c.fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    this.#fds.push(fd);
    return fd;
  }
}

function unavailable(what: string, code: number): LinkError {
  return new LinkError("SANDBOX_UNAVAILABLE", `Cannot start a sandbox: cannot ${what} (errno ${code})`, {
    hint: "Run lnk with all permissions on Linux 3.17 or later",
  });
}
