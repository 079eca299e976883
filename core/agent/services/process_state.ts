/** Whether a process lives (a zombie does not), and, given a marker, that it is still ours. */
export async function processAlive(pid: number, marker?: string): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    if (state === "Z" || state === "X") return false;
    if (marker === undefined) return true;
    const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`);
    return cmdline.includes(marker);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    if (Deno.build.os === "linux") return false;
    return await killZero(pid);
  }
}

async function killZero(pid: number): Promise<boolean> {
  const { code } = await new Deno.Command("kill", { args: ["-0", String(pid)], stderr: "null" }).output();
  return code === 0;
}

/** Waits for a process to end, checking every few milliseconds, until the deadline. */
export async function waitForExit(pid: number, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (!(await processAlive(pid))) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return !(await processAlive(pid));
}

/** Signals a whole process group, falling back to the process alone. */
export function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    try {
      Deno.kill(pid, signal);
    } catch { /* gone */ }
  }
}
