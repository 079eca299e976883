/**
 * What a program inside a sandbox is, as the "self" probe of `lnk agent harness check` reads it
 * from inside: its ids and capabilities (/proc/self/status), its standard descriptors, whether
 * /proc/sys opens for writing, and whether pid 1 and its parent can be seized by ptrace (which
 * stops nothing, and ends with the probe). Never throws: what it could not read says so.
 */
export async function selfFacts(): Promise<Record<string, string>> {
  const facts: Record<string, string> = {};
  const status = await Deno.readTextFile("/proc/self/status").catch(() => "");
  for (const name of ["Uid", "Gid", "CapEff", "CapBnd", "NoNewPrivs"]) {
    facts[name] = new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1]?.trim().split(/\s+/)[0] ?? "?";
  }
  for (const fd of [0, 1, 2]) {
    const target = await Deno.readLink(`/proc/self/fd/${fd}`).catch(() => "closed");
    facts[`fd${fd}`] = target.replace(/\[\d+\]$/, "");
  }
  facts.procSys = await Deno.open("/proc/sys/kernel/core_pattern", { write: true }).then(
    (file) => (file.close(), "writable"),
    () => "read-only",
  );
  const parent = /^PPid:\s*(\d+)/m.exec(status)?.[1];
  facts.ptracePid1 = ptrace(1);
  facts.ptraceParent = parent ? ptrace(Number(parent)) : "?";
  return facts;
}

const PTRACE_SEIZE = 0x4206;

/** "refused" when seizing `pid` fails, "attached" when it works (let go as the probe exits). */
function ptrace(pid: number): string {
  let libc: Deno.DynamicLibrary<
    { syscall: { parameters: ["i64", "i64", "i64", "i64", "i64"]; result: "i64" } }
  >;
  try {
    libc = Deno.dlopen("libc.so.6", {
      syscall: { parameters: ["i64", "i64", "i64", "i64", "i64"], result: "i64" },
    });
  } catch {
    return "?";
  }
  try {
    const nr = Deno.build.arch === "aarch64" ? 117n : 101n;
    return libc.symbols.syscall(nr, BigInt(PTRACE_SEIZE), BigInt(pid), 0n, 0n) < 0n ? "refused" : "attached";
  } finally {
    libc.close();
  }
}
