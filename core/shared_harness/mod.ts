/**
 * The shared harness (PRC-1..4, PRC-15, PRC-16): with `shared_harness = true` in machine.toml, one
 * sandbox with one Link Harness process serves all of one owner's agents that reach out only
 * through their own proxies, each with its own key, proxy and grants; the rest keep their own.
 * @module
 */
/** `lnk harness shared --owner <owner>`: the owner's shared harness, loaded when it runs. */
export async function runSharedHarnessRole(args: string[], signal: AbortSignal): Promise<number> {
  const { runSharedHarnessRole: run } = await import("./run_shared_harness_role.ts");
  return await run(args, signal);
}
/** One owner's shared harness and its state (its service's names are core/agent/sharing's). */
export { SharedHarness } from "./shared_harness.ts";
