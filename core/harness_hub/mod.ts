/**
 * The hub's role: a stdio ACP agent served as the agent's endpoint inside its sandbox.
 * @module
 */
export { runHarnessHubRole } from "./run_harness_hub_role.ts";
