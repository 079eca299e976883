/**
 * The mini harness (`lnk harness mini`): the adapter contract's reference, a harness that echoes,
 * served on the agent's endpoint with its proof.
 * @module
 */
/** The mini harness's endpoint, its role, and how a harness is handed its agents. */
export { HarnessInput, miniHarnessHandler, runMiniHarnessRole } from "./mini_harness.ts";
