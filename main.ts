/**
 * `lnk`: reads the first words of the command line and runs a command or a background role.
 * @module
 */
import { runCli, terminalIo } from "./cmd/mod.ts";
import { logger, toLinkError } from "./core/base/mod.ts";
import { runAgentRole, runBridgeRole } from "./core/agent/mod.ts";
import { runMiniHarnessRole } from "./core/adapters/mod.ts";

type Role = (args: string[], signal: AbortSignal) => Promise<number>;

/** The background roles: the same binary started again by a service or a parent role. */
const ROLES: Record<string, Role> = {
  "agent run": runAgentRole,
  "agent bridge": runBridgeRole,
  "harness mini": runMiniHarnessRole,
};

async function runRole(role: Role, name: string, args: string[]): Promise<number> {
  const controller = new AbortController();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => controller.abort(new Error(signal)));
  }
  try {
    return await role(args, controller.signal);
  } catch (err) {
    const error = toLinkError(err);
    logger(name).error(error.message, {
      code: error.code,
      hint: error.hint,
      stack: error.cause instanceof Error ? error.cause.stack : undefined,
    });
    return 1;
  }
}

if (import.meta.main) {
  const words = Deno.args.slice(0, 2).join(" ");
  const role = ROLES[words];
  const code = role ? await runRole(role, words, Deno.args.slice(2)) : await runCli(Deno.args, terminalIo());
  Deno.exit(code);
}
