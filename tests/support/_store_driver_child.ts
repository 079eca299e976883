/**
 * Runs runStoreDriverRole as its own program, as `lnk store driver` does once main.ts maps it, so
 * tests run the real driver role in a child without going through main.ts.
 */
import { runStoreDriverRole } from "../../core/harness/store/mod.ts";

const controller = new AbortController();
Deno.addSignalListener("SIGTERM", () => controller.abort());
Deno.exit(await runStoreDriverRole(Deno.args, controller.signal));
