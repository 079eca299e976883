/**
 * `lnk`: reads the first words of the command line and runs a command or a background role.
 * Each role loads only its own modules, so a role starts fast (a wake waits on it).
 * @module
 */
import { announceError, logger, setDefaultLogLevel, toLinkError } from "./core/base/mod.ts";

type Role = (args: string[], signal: AbortSignal) => Promise<number>;

/** The background roles: the same binary started again by a service or a parent role. */
export const ROLES: Record<string, () => Promise<Role>> = {
  "agent run": async () => (await import("./core/agent_run/mod.ts")).runAgentRunRole,
  "agent bridge": async () => (await import("./core/agent_bridge/mod.ts")).runAgentBridgeRole,
  "agent bridges": async () => (await import("./core/shared_bridge/mod.ts")).runSharedBridgeRole,
  // One connection of an agent, started by its bridge: a platform's client loads in this role alone.
  "connection bridge": async () => (await import("./core/connect/mod.ts")).runConnectionBridgeRole,
  "scheduler runner": async () => (await import("./core/scheduler/mod.ts")).runRunnerRole,
  "harness mini": async () => (await import("./core/adapters/mini/mod.ts")).runMiniHarnessRole,
  // A stdio ACP agent served as the agent's endpoint, inside its sandbox (ARCHITECTURE.md section 6).
  "harness hub": async () => (await import("./core/harness_hub/mod.ts")).runHarnessHubRole,
  // Link's own adapters, asked as any lnk-<harness> program is (docs/adapters.md).
  "harness adapter": async () => (await import("./core/adapters/mod.ts")).runAdapterRole,
  // A built-in adapter's endpoint launcher in its sandbox, run by the hub as its stdio ACP command.
  "harness launch": async () => (await import("./core/adapters/mod.ts")).runLaunchRole,
  "proxy serve": async () => (await import("./proxy/mod.ts")).runProxyRole,
  "store driver": async () => (await import("./core/harness/store/mod.ts")).runStoreDriverRole,
  "harness serve": async () => (await import("./core/harness/serve/mod.ts")).runHarnessServeRole,
  "harness host": async () => (await import("./core/harness/serve/mod.ts")).runHarnessHostRole,
  "harness shared": async () => (await import("./core/shared_harness/mod.ts")).runSharedHarnessRole,
  "memory serve": async () => (await import("./core/memory_service/mod.ts")).runMemoryServiceRole,
  // Its own file, not core/harness/serve/mod.ts: it loads the modules a wake loads, and those alone.
  "harness warm": async () =>
    (await import("./core/harness/serve/run_harness_warm_role.ts")).runHarnessWarmRole,
  // Inside a sandbox: the relays, then the harness in this same process when it is one of ours.
  "sandbox relay": async () => {
    // Its own file, not sandbox/mod.ts: every grant schema and the proxy would load in each sandbox.
    const { runRelayRole } = await import("./sandbox/run_relay_role.ts");
    return (args, signal) => runRelayRole(args, signal, { roles: (words) => ROLES[words], exec: true });
  },
};

async function runRole(load: () => Promise<Role>, name: string, args: string[]): Promise<number> {
  const controller = new AbortController();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => controller.abort(new Error(signal)));
  }
  try {
    return await (await load())(args, controller.signal);
  } catch (err) {
    const error = toLinkError(err);
    const stack = error.cause instanceof Error ? error.cause.stack : undefined;
    logger(name).error(error.message, { code: error.code, hint: error.hint, stack });
    // The one line its parent reads, never its log: the error with its code.
    announceError(error);
    return 1;
  }
}

async function runCommand(args: string[]): Promise<number> {
  // A command prints its results; what runs in its process (a proxy, a sandbox) says only warnings.
  setDefaultLogLevel("warn");
  const { runCli, terminalIo } = await import("./cmd/mod.ts");
  return await runCli(args, terminalIo());
}

if (import.meta.main) {
  // Everything Link makes is its user's alone (folders 0700, files 0600), whatever umask it was
  // started with; the programs it runs inherit this.
  if (Deno.build.os !== "windows") Deno.umask(0o077);
  const words = Deno.args.slice(0, 2).join(" ");
  const role = ROLES[words];
  const code = role ? await runRole(role, words, Deno.args.slice(2)) : await runCommand(Deno.args);
  Deno.exit(code);
}
