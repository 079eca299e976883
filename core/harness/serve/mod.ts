/**
 * `lnk harness serve` as main.ts starts it: the role's own modules load only when it runs, so a
 * woken agent's harness loads what its start needs and no more (PRC-13). The rest of serving
 * (the input's schema, the endpoint, the store) is exported by core/harness/mod.ts.
 * @module
 */
/** `lnk harness serve --socket <path>`: Link Harness, loaded when it runs. */
export async function runHarnessServeRole(args: string[], signal: AbortSignal): Promise<number> {
  // zod compiles a parser for each object schema at its first use; in a process a wake waits on,
  // that costs more than the faster parses give back, so this process parses without.
  const { z } = await import("zod");
  z.config({ jitless: true });
  const { runHarnessServeRole: run } = await import("./run_harness_serve_role.ts");
  return await run(args, signal);
}

/** `lnk harness host`: the shared harness's process in its sandbox, serving agents as they join (PRC-2). */
export async function runHarnessHostRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runHarnessHostRole: run } = await import("./run_harness_host_role.ts");
  return await run(args, signal);
}
