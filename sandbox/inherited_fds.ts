import { LinkError } from "../core/base/mod.ts";

const CLOSE_RANGE_CLOEXEC = 4;
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;

type Libc = {
  symbols: {
    close_range?: (first: number, last: number, flags: number) => number;
    fcntl: (fd: number, cmd: number, arg: number) => number;
  };
};

let libc: Libc | undefined;

/**
 * Marks every descriptor above stderr close-on-exec, so a sandbox inherits none this process was
 * given (Deno's own are close-on-exec already; those a parent leaked to us are not, and bwrap's
 * pid 1 would hold them open inside, where /proc/1/fd reaches them). Link passes stdin, stdout and
 * stderr alone. SANDBOX_UNAVAILABLE when it cannot be done: never a sandbox with leaked descriptors.
 */
export function closeInheritedFds(): void {
  const c = open();
  if (c.symbols.close_range && c.symbols.close_range(3, 0xffffffff, CLOSE_RANGE_CLOEXEC) === 0) return;
  // Older kernels: mark each open descriptor.
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    const fd = Number(entry.name);
    if (fd < 3) continue;
    const flags = c.symbols.fcntl(fd, F_GETFD, 0);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) c.symbols.fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

function open(): Libc {
  if (libc) return libc;
  try {
    libc = Deno.dlopen("libc.so.6", {
      close_range: { parameters: ["u32", "u32", "i32"], result: "i32", optional: true },
      fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
    }) as unknown as Libc;
    return libc;
  } catch (err) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start a sandbox: inherited descriptors cannot be closed",
      {
        hint: "Run lnk with all permissions (the C library is needed to close descriptors)",
        cause: err,
      },
    );
  }
}
