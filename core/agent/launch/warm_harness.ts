import { logger, roleArgv } from "../../base/mod.ts";

const log = logger("bridge");

/**
 * Starts `lnk harness warm` beside the bridge, once, so the harness's modules are in Deno's code
 * cache before the next wake (the sandbox only reads that cache). Not when compiled: the binary
 * carries its code. Nothing waits on it; a failure costs only speed.
 */
export function warmHarnessCode(env: Record<string, string>): void {
  if (Deno.build.standalone) return;
  const [exe, ...args] = roleArgv(["harness", "warm"]);
  try {
    const child = new Deno.Command(exe!, {
      args,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    })
      .spawn();
    child.status.then((s) => {
      if (!s.success) log.debug("Warming the harness's code failed", { code: s.code });
    });
  } catch (err) {
    log.debug("Cannot warm the harness's code", { error: err });
  }
}
