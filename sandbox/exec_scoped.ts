/**
 * Replaces this process with `command`, run from a Landlock domain of its own: the fast way for
 * the sandbox's launcher to start a program when it relays nothing (it has nothing left to do, so
 * nothing of it needs to outlive the exec). The domain refuses device nodes and scopes ptrace,
 * signals and abstract sockets to itself, as ConfinedSpawner.scoped() does for a program started
 * beside relays (the worker there holds its own copy of these few lines: it imports nothing).
 * Returns only when the exec failed: 127 when the program is not there, 126 when it cannot run.
 */
export function execScoped(command: readonly string[]): number {
  const libc = Deno.dlopen("libc.so.6", {
    create: { name: "syscall", parameters: ["i64", "pointer", "usize", "u32"], result: "i64" },
    addRule: { name: "syscall", parameters: ["i64", "i64", "i64", "pointer", "u32"], result: "i64" },
    open: { parameters: ["buffer", "i32"], result: "i32" },
    close: { parameters: ["i32"], result: "i32" },
    restrict: { name: "syscall", parameters: ["i64", "i64", "u32"], result: "i64" },
    prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
    execvp: { parameters: ["buffer", "buffer"], result: "i32" },
    __errno_location: { parameters: [], result: "pointer" },
  });
  const errno = () => new Deno.UnsafePointerView(libc.symbols.__errno_location()!).getInt32();
  const abi = Number(libc.symbols.create(444n, null, 0n, 1));
  if (abi < 1) throw new Error(`Landlock is not available here (errno ${errno()})`);
  const DEVICES = (1n << 6n) | (1n << 11n); // MAKE_CHAR, MAKE_BLOCK: handled, never granted
  // REFER (links and renames between folders), which Landlock refuses everywhere unless a rule
  // grants it: granted beneath the writable mounts alone, where the mounts say what may move.
  const REFER = abi >= 2 ? 1n << 13n : 0n;
  const attr = new BigUint64Array([DEVICES | REFER, 0n, abi >= 6 ? 0b11n : 0n]);
  const ruleset = libc.symbols.create(444n, Deno.UnsafePointer.of(attr), abi >= 6 ? 24n : 8n, 0);
  if (ruleset < 0n) throw new Error(`Cannot make a Landlock ruleset (errno ${errno()})`);
  for (const point of REFER ? writableMounts() : []) {
    const fd = libc.symbols.open(new TextEncoder().encode(`${point}\0`), 0o10000000 | 0o2000000); // O_PATH|O_CLOEXEC
    if (fd < 0) continue;
    const rule = new DataView(new ArrayBuffer(12)); // struct landlock_path_beneath_attr, packed
    rule.setBigUint64(0, REFER, true);
    rule.setInt32(8, fd, true);
    const added = libc.symbols.addRule(445n, ruleset, 1n, Deno.UnsafePointer.of(rule.buffer), 0);
    libc.symbols.close(fd);
    if (added < 0n) throw new Error(`Cannot let programs link and rename in "${point}" (errno ${errno()})`);
  }
  if (libc.symbols.prctl(38, 1n, 0n, 0n, 0n) !== 0) {
    throw new Error(`Cannot set no_new_privs (errno ${errno()})`);
  }
  if (libc.symbols.restrict(446n, ruleset, 0) < 0n) {
    throw new Error(`Cannot enter the domain (errno ${errno()})`);
  }
  const strings = command.map((word) => new TextEncoder().encode(`${word}\0`));
  const argv = new BigUint64Array(strings.length + 1);
  strings.forEach((s, i) => (argv[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(s)))));
  libc.symbols.execvp(strings[0]!, new Uint8Array(argv.buffer));
  const code = errno();
  return code === 2 ? 127 : 126; // ENOENT, else EACCES and the rest
}

/** The folders this process's writable mounts are on (/proc/self/mountinfo), a file's left out. */
function writableMounts(): string[] {
  const points: string[] = [];
  for (const line of Deno.readTextFileSync("/proc/self/mountinfo").split("\n")) {
    const fields = line.split(" ");
    if (fields.length < 6 || !fields[5]!.split(",").includes("rw")) continue;
    const point = fields[4]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    try {
      const info = Deno.lstatSync(point);
      if (info.isDirectory) points.push(point);
    } catch { /* gone, or not ours to see */ }
  }
  return points;
}
