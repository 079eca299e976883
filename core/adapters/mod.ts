/**
 * Harnesses and their adapters: what Link knows of each. The mini harness, the contract's
 * reference, is its own folder (`mini/`), so what knows harnesses by name loads no endpoint.
 * @module
 */
/** The harnesses Link knows by name, and the default. */
export { DEFAULT_HARNESS, KNOWN, type KnownHarness } from "./known.ts";
