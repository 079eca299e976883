import { libc } from "./libc.ts";

const CLOSE_RANGE_CLOEXEC = 4;
const F_GETFD = 1;
const F_SETFD = 2;
const FD_CLOEXEC = 1;
/** Set (to this process's pid) once inherited descriptors are marked; process-wide, as descriptors are. */
const DONE = "LNK_INHERITED_FDS_MARKED";

/**
 * Marks every descriptor above stderr close-on-exec, so a sandbox inherits none this process was
 * given (Deno's own are close-on-exec already; those a parent leaked to us are not, and bwrap's
 * pid 1 would hold them open inside, where /proc/1/fd reaches them). Link passes stdin, stdout and
 * stderr alone, and what PassedFds opens after this. SANDBOX_UNAVAILABLE when it cannot be done:
 * never a sandbox with leaked descriptors.
 *
 * Done once per process: what a parent leaks is there from the start, and every descriptor made
 * since is close-on-exec but PassedFds' own. Marking everything again at each start would mark the
 * descriptors another thread of this process (a worker, a test module of `deno test --parallel`)
 * holds open for the bubblewrap it is starting that moment, which then never gets them.
 */
export function closeInheritedFds(): void {
  if (Deno.env.get(DONE) === String(Deno.pid)) return;
  Deno.env.set(DONE, String(Deno.pid));
  const c = libc();
  if (c.close_range && c.close_range(3, 0xffffffff, CLOSE_RANGE_CLOEXEC) === 0) return;
  // Older kernels: mark each open descriptor.
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    const fd = Number(entry.name);
    if (fd < 3) continue;
    const flags = c.fcntl(fd, F_GETFD, 0);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) c.fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}
