import { READY_PREFIX, RoleExited } from "../../base/mod.ts";

/**
 * Waits for the ready line of the role running in a sandbox (its stdout is the sandbox's), never
 * for time, and throws RoleExited when the sandbox ends first. Anything else the role prints, then
 * and later, goes to this process's stderr, the agent's log, so no full pipe ever blocks it.
 */
export async function readSandboxReady(
  stdout: ReadableStream<Uint8Array>,
  status: Promise<Deno.CommandStatus>,
): Promise<Record<string, unknown>> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  const exited = status.then((s): never => {
    throw new RoleExited(s.code);
  });
  exited.catch(() => {});
  let buffer = "";
  try {
    while (true) {
      const chunk = await Promise.race([reader.read(), exited]);
      if (chunk.done) return await exited;
      buffer += chunk.value;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith(READY_PREFIX)) {
          forward(reader, buffer);
          return JSON.parse(line.slice(READY_PREFIX.length));
        }
        toLog(`${line}\n`);
      }
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  }
}

function forward(reader: ReadableStreamDefaultReader<string>, rest: string): void {
  if (rest) toLog(rest);
  (async () => {
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) toLog(chunk.value);
    } catch { /* the sandbox ended */ }
  })();
}

function toLog(text: string): void {
  try {
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  } catch { /* no log to write to */ }
}
