import { roleArgv } from "../../core/base/mod.ts";
import type { CliResult } from "./run_cli.ts";
import type { TempHome } from "./temp_home.ts";

/** How a child `lnk` is run: what is typed on its stdin, and the umask its shell gives it. */
export interface RunLnkOptions {
  stdin?: string;
  /** The umask the child starts with (a shell's `umask 000`, say); this process's unless told. */
  umask?: number;
}

/** Runs `lnk <args>` as a child process, as a person at a shell would, against a temporary home. */
export async function runLnk(
  args: string[],
  home: TempHome,
  options: RunLnkOptions = {},
): Promise<CliResult> {
  const argv = roleArgv(args);
  const [exe, ...rest] = options.umask === undefined
    ? argv
    : ["sh", "-c", `umask ${options.umask.toString(8).padStart(3, "0")} && exec "$@"`, "sh", ...argv];
  const child = new Deno.Command(exe!, {
    args: rest,
    env: home.env.toObject(),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}
