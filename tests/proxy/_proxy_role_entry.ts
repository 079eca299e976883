/**
 * Runs `lnk proxy serve` as main.ts would (SIGTERM aborts it), for the role's tests, until
 * main.ts maps the role.
 */
import { runProxyRole } from "../../proxy/mod.ts";

const controller = new AbortController();
const abort = () => controller.abort();
Deno.addSignalListener("SIGTERM", abort);
try {
  Deno.exitCode = await runProxyRole(Deno.args, controller.signal);
} finally {
  Deno.removeSignalListener("SIGTERM", abort);
}
