import { readReadyLine } from "../../base/mod.ts";

/**
 * Waits for the ready line of the role running in a sandbox (its stdout is the sandbox's), never
 * for time, and throws RoleExited when the sandbox ends first. Anything else the role prints, then
 * and later, goes to this process's stderr, the agent's log, so no full pipe ever blocks it.
 */
export function readSandboxReady(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
): Promise<Record<string, unknown>> {
  return readReadyLine(stdout, status, { onOther: toLog });
}

function toLog(text: string): void {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  } catch { /* no log to write to */ }
}
