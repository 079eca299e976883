/**
 * `lnk`: reads the first words of the command line and runs a command or a background role.
 * @module
 */
import { runCli, terminalIo } from "./cmd/mod.ts";

if (import.meta.main) {
  const code = await runCli(Deno.args, terminalIo());
  Deno.exit(code);
}
