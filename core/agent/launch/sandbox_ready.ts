import { readReadyLine } from "../../base/mod.ts";
import { ProgramOutput } from "../../../sandbox/mod.ts";

/**
 * Waits for the ready line of the role running in a sandbox (its stdout is the sandbox's), never
 * for time, and throws RoleExited when the sandbox ends first. Anything else the role prints, then
 * and later, is logged as the sandbox's own lines (never as Link's), so no full pipe ever blocks it:
 * an error line too, since any program in the sandbox may write one, so it is never Link's reason.
 */
export function readSandboxReady(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
  agent?: string,
): Promise<Record<string, unknown>> {
  const output = new ProgramOutput({ agent, stream: "stdout" });
  status.finally(() => output.end());
  return readReadyLine(stdout, status, { onOther: (text) => output.write(text), errorLines: "output" });
}
