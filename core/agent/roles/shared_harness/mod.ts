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
/** Starts a planned agent on its owner's shared harness, and asks the shared harness. */
export { callShared, launchOnSharedHarness } from "./shared_harness_launch.ts";
/** Why an agent keeps a sandbox of its own rather than share (PRC-3). */
export { sharedRefusal } from "./shared_eligible.ts";
/** One owner's shared harness, its state, and its service. */
export { SharedHarness, type SharedHarnessState } from "./shared_harness.ts";
export {
  sharedHarnessNames,
  sharedHarnessService,
  sharedHarnessSocketPath,
} from "./shared_harness_service.ts";
