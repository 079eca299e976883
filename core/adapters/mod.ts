/**
 * Harnesses and their adapters: what Link knows of each, the contract, the mini harness.
 * @module
 */
/** The harnesses Link knows by name, and the default. */
export { DEFAULT_HARNESS, KNOWN, type KnownHarness } from "./known.ts";
/** The mini harness, the contract's reference, and how a harness is handed its agents. */
export { HarnessInput, miniHarnessHandler, runMiniHarnessRole } from "./mini_harness.ts";
