// The relay role from source, as `lnk sandbox relay` runs it once wired into main.ts.
import { runRelayRole } from "../../sandbox/mod.ts";

Deno.exit(await runRelayRole(Deno.args));
