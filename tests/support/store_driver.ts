import { fileURLToPath } from "node:url";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/** Link's store driver role as a program of its own (_store_driver_child.ts), for denoScript. */
export const STORE_DRIVER_CHILD: URL = new URL("./_store_driver_child.ts", import.meta.url);

/** The command line running a test program with Deno, as a driver or a racer. */
export function denoScript(script: URL, args: string[]): string[] {
  const path = fileURLToPath(script);
  return [Deno.execPath(), "run", "-A", "--cached-only", "--config", CONFIG, path, ...args];
}

/** The command line of Link's own store driver role (through _store_driver_child.ts). */
export function driverCommand(kind: "files" | "sqlite", root: string, serve: boolean): string[] {
  return denoScript(STORE_DRIVER_CHILD, ["--kind", kind, "--root", root, ...(serve ? ["--serve"] : [])]);
}

/** Wraps a command so each process it starts appends its pid to `pidFile` (exec keeps the pid). */
export function countingStarts(pidFile: string, command: string[]): string[] {
  return ["sh", "-c", 'echo $$ >> "$0"; exec "$@"', pidFile, ...command];
}

/** The pids written by countingStarts, one per process started. */
export async function startsCounted(pidFile: string): Promise<number[]> {
  const text = await Deno.readTextFile(pidFile).catch(() => "");
  return text.split("\n").filter((line) => line !== "").map(Number);
}

/** Makes a named pipe at `path`, for announcingStarts. */
export async function makeFifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!made.success) throw new Error(`mkfifo ${path} failed`);
}

/** Wraps a command so each process it starts first writes its pid into the named pipe `fifo`. */
export function announcingStarts(fifo: string, command: string[]): string[] {
  return ["sh", "-c", 'echo $$ > "$0"; exec "$@"', fifo, ...command];
}

/** Waits for the next process started by announcingStarts to be running, and returns its pid. */
export async function nextStart(fifo: string): Promise<number> {
  const file = await Deno.open(fifo, { read: true });
  let text = "";
  try {
    for await (const chunk of file.readable.pipeThrough(new TextDecoderStream())) text += chunk;
  } catch { /* the readable closes the file itself */ }
  return Number(text.trim());
}

/** Whether a process with this pid is still there (not yet reaped). */
export function isRunning(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}
