/**
 * The program of ConfinedSpawner's worker thread. It is started from its own source text (a data:
 * URL), so it imports nothing and works the same from source and compiled: every name it uses is
 * defined inside confineWorkerMain.
 *
 * On "init" it makes its own thread a Landlock domain (Linux 5.13+; no privilege needed) in which
 * writing is allowed beneath every writable mount of this mount namespace except the folders it is
 * told to keep, then starts programs on request. Told folders to hide, it also handles reading,
 * listing and running, allowed beneath every mount but within those folders (never writable
 * either). Landlock holds per thread and passes to every
 * program started from it, so the programs can write what the sandbox lets them, but for those
 * folders, while the rest of the process (the harness, writing its chats) is untouched. A program
 * in the domain cannot ptrace or reopen the descriptors of a process outside it, either, nor make
 * a device node anywhere. Told "scopeOnly", the domain refuses device nodes alone: it is there for
 * its ptrace rule and its scopes (signals and abstract sockets outside it, ABI 6).
 */
export function confineWorkerMain(): void {
  type In =
    | { type: "init"; keep: string[]; hide: string[]; scopeOnly: boolean }
    | {
      type: "spawn";
      id: number;
      program: string;
      args: string[];
      cwd?: string;
      env?: Record<string, string>;
      stdin: boolean;
      /** The program gets this process's own stdin, stdout and stderr. */
      inherit: boolean;
    }
    | { type: "stdin"; id: number; chunk: Uint8Array }
    | { type: "stdin-close"; id: number }
    | { type: "kill"; id: number; signal: Deno.Signal }
    | { type: "cancel"; id: number; name: "stdout" | "stderr" };
  const scope = globalThis as unknown as {
    onmessage: (event: MessageEvent<In>) => void;
    postMessage(message: unknown, transfer?: Transferable[]): void;
  };
  // Landlock's filesystem rights (linux/landlock.h): those that change something.
  const WRITE_FILE = 1n << 1n, TRUNCATE = 1n << 14n, REFER = 1n << 13n;
  const DIR_WRITES = [4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n, 12n].reduce((all, bit) => all | (1n << bit), 0n);
  // Device nodes (MAKE_CHAR, MAKE_BLOCK): handled and never granted, so no program makes one.
  const DEVICES = (1n << 6n) | (1n << 11n);
  const SCOPES = 0b11n; // abstract unix sockets and signals outside the domain (ABI 6)
  // Those that read or run, handled only when some folder is hidden: EXECUTE, READ_FILE, READ_DIR.
  const READS = (1n << 0n) | (1n << 2n) | (1n << 3n);
  // The only rights a rule on a file (not a folder) may hold: EXECUTE, WRITE_FILE, READ_FILE, TRUNCATE.
  const FILE_RIGHTS = (1n << 0n) | WRITE_FILE | (1n << 2n) | TRUNCATE;
  type Place = { path: string; dir: boolean };
  interface Running {
    child: Deno.ChildProcess;
    readers?: Record<"stdout" | "stderr", ReadableStreamDefaultReader<Uint8Array>>;
    stdin?: WritableStreamDefaultWriter<Uint8Array>;
  }
  const children = new Map<number, Running>();

  function confine(
    keep: readonly string[],
    hide: readonly string[],
    scopeOnly: boolean,
  ): { abi: number; granted: string[] } {
    const libc = Deno.dlopen("libc.so.6", {
      create: { name: "syscall", parameters: ["i64", "pointer", "usize", "u32"], result: "i64" },
      addRule: { name: "syscall", parameters: ["i64", "i64", "i64", "pointer", "u32"], result: "i64" },
      restrict: { name: "syscall", parameters: ["i64", "i64", "u32"], result: "i64" },
      prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
      open: { parameters: ["buffer", "i32"], result: "i32" },
      close: { parameters: ["i32"], result: "i32" },
      __errno_location: { parameters: [], result: "pointer" },
    });
    const errno = () => new Deno.UnsafePointerView(libc.symbols.__errno_location()!).getInt32();
    const abi = Number(libc.symbols.create(444n, null, 0n, 1));
    if (abi < 1) throw new Error(`Landlock is not available here (errno ${errno()})`);
    for (const folder of hide) mustBeReal(folder);
    const writes = (WRITE_FILE | DIR_WRITES | (abi >= 2 ? REFER : 0n) | (abi >= 3 ? TRUNCATE : 0n)) &
      ~DEVICES;
    // A domain for its scopes alone (ptrace, signals and abstract sockets outside it) refuses only
    // devices, and handles REFER, which Landlock otherwise refuses everywhere (a hard link or a
    // rename between folders fails EXDEV): granted beneath the writable mounts alone, where the
    // mounts already say what may move (a read-only mount, a hidden place or a protected file is
    // a mount of its own, which nothing links or renames across).
    const handled = scopeOnly
      ? DEVICES | (abi >= 2 ? REFER : 0n)
      : writes | DEVICES | (hide.length > 0 ? READS : 0n);
    const attr = new BigUint64Array([handled, 0n, abi >= 6 ? SCOPES : 0n]);
    const ruleset = libc.symbols.create(444n, Deno.UnsafePointer.of(attr), abi >= 6 ? 24n : 8n, 0);
    if (ruleset < 0n) throw new Error(`Cannot make a Landlock ruleset (errno ${errno()})`);
    const allow = (place: Place, rights: bigint, what: string): boolean => {
      const fd = libc.symbols.open(new TextEncoder().encode(`${place.path}\0`), 0o10000000 | 0o2000000); // O_PATH|O_CLOEXEC
      if (fd < 0) return false;
      const rule = new DataView(new ArrayBuffer(12)); // struct landlock_path_beneath_attr, packed
      rule.setBigUint64(0, place.dir ? rights : rights & FILE_RIGHTS, true);
      rule.setInt32(8, fd, true);
      const added = libc.symbols.addRule(445n, ruleset, 1n, Deno.UnsafePointer.of(rule.buffer), 0);
      libc.symbols.close(fd);
      if (added < 0n) throw new Error(`Cannot let programs ${what} "${place.path}" (errno ${errno()})`);
      return true;
    };
    const granted: string[] = [];
    const unwritable = [...keep, ...hide];
    for (const place of scopeOnly ? [] : places(unwritable, true)) {
      if (allow(place, writes, "write")) granted.push(place.path);
    }
    if (scopeOnly && abi >= 2) {
      for (const place of places([], true)) if (place.dir) allow(place, REFER, "link and rename in");
    }
    if (hide.length > 0 && !scopeOnly) {
      for (const place of places(hide, false)) allow(place, READS, "read");
    }
    if (libc.symbols.prctl(38, 1n, 0n, 0n, 0n) !== 0) {
      throw new Error(`Cannot set no_new_privs (errno ${errno()})`);
    }
    if (libc.symbols.restrict(446n, ruleset, 0) < 0n) {
      throw new Error(`Cannot enter the domain (errno ${errno()})`);
    }
    libc.symbols.close(Number(ruleset));
    libc.close();
    return { abi, granted };
  }

  /**
   * A folder to hide must be named by its real path, or by one beneath a real existing folder:
   * through a symbolic link its real place would be granted as another entry of some folder.
   */
  function mustBeReal(folder: string): void {
    if (!folder.startsWith("/")) throw new Error(`"${folder}" is not an absolute path`);
    for (let path = folder;; path = path.slice(0, path.lastIndexOf("/")) || "/") {
      let real: string;
      try {
        real = Deno.realPathSync(path);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue;
        throw new Error(`Cannot see "${folder}" (${err})`);
      }
      if (real === path) return;
      throw new Error(`"${folder}" is not a real path: "${path}" is "${real}"`);
    }
  }

  /**
   * Every mount, by its mount point (writable ones only when `writable`), but those in an excluded
   * folder; a mount holding an excluded folder is granted entry by entry, never itself, down the
   * way to that folder. Entries made there later are granted nothing.
   */
  function places(excluded: readonly string[], writable: boolean): Place[] {
    const within = (path: string, folder: string) =>
      folder === "/" || path === folder || path.startsWith(`${folder}/`);
    const found: Place[] = [];
    const add = (path: string) => {
      try {
        const info = Deno.lstatSync(path);
        if (!info.isSymlink) found.push({ path, dir: info.isDirectory });
      } catch { /* gone, or not ours to see */ }
    };
    const descend = (dir: string) => {
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(dir)];
      } catch (err) {
        const folder = excluded.find((k) => within(k, dir))!;
        throw new Error(`Cannot list "${dir}" on the way to "${folder}" (${err})`);
      }
      for (const entry of entries) {
        const path = dir === "/" ? `/${entry.name}` : `${dir}/${entry.name}`;
        if (excluded.some((k) => within(path, k))) continue;
        if (excluded.some((k) => within(k, path))) descend(path);
        else add(path);
      }
    };
    for (const line of Deno.readTextFileSync("/proc/self/mountinfo").split("\n")) {
      const fields = line.split(" ");
      if (fields.length < 6 || (writable && !fields[5]!.split(",").includes("rw"))) continue;
      const point = fields[4]!.replace(
        /\\([0-7]{3})/g,
        (_, o: string) => String.fromCharCode(parseInt(o, 8)),
      );
      if (excluded.some((k) => within(point, k))) continue;
      if (excluded.some((k) => within(k, point))) descend(point);
      else add(point);
    }
    return found;
  }

  async function pump(
    id: number,
    name: "stdout" | "stderr",
    reader: ReadableStreamDefaultReader<Uint8Array>,
  ) {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        scope.postMessage({ type: "out", id, name, chunk: value }, [value.buffer as ArrayBuffer]);
      }
    } catch { /* the program closed it, or the reader was cancelled */ }
    scope.postMessage({ type: "end", id, name });
  }

  function spawn(msg: Extract<In, { type: "spawn" }>): void {
    let child: Deno.ChildProcess;
    try {
      const out = msg.inherit ? "inherit" : "piped";
      child = new Deno.Command(msg.program, {
        args: msg.args,
        cwd: msg.cwd,
        env: msg.env,
        stdin: msg.inherit ? "inherit" : msg.stdin ? "piped" : "null",
        stdout: out,
        stderr: out,
      }).spawn();
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      scope.postMessage({ type: "spawn-failed", id: msg.id, name: error.name, message: error.message });
      return;
    }
    const readers = msg.inherit
      ? undefined
      : { stdout: child.stdout.getReader(), stderr: child.stderr.getReader() };
    const stdin = msg.stdin && !msg.inherit ? child.stdin.getWriter() : undefined;
    children.set(msg.id, { child, readers, stdin });
    scope.postMessage({ type: "spawned", id: msg.id, pid: child.pid });
    const piped: Promise<unknown> = readers
      ? Promise.all([pump(msg.id, "stdout", readers.stdout), pump(msg.id, "stderr", readers.stderr)])
      : Promise.resolve();
    // The exit is told at once: a program it left running may hold its output open for long.
    child.status.then((status) => {
      scope.postMessage({ type: "exit", id: msg.id, code: status.code, signal: status.signal });
      return piped;
    }).finally(() => children.delete(msg.id));
  }

  scope.onmessage = ({ data: msg }) => {
    if (msg.type === "init") {
      try {
        scope.postMessage({ type: "ready", ...confine(msg.keep, msg.hide, msg.scopeOnly) });
      } catch (err) {
        scope.postMessage({ type: "failed", message: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
    if (msg.type === "spawn") return spawn(msg);
    const entry = children.get(msg.id);
    if (!entry) return;
    if (msg.type === "kill") {
      try {
        entry.child.kill(msg.signal);
      } catch { /* it has already ended */ }
    } else if (msg.type === "cancel") entry.readers?.[msg.name].cancel().catch(() => {});
    else if (msg.type === "stdin") entry.stdin?.write(msg.chunk).catch(() => {});
    else entry.stdin?.close().catch(() => {});
  };
}
