/**
 * The sandbox: an agent's grants (its sandbox file) and running programs under them.
 * @module
 */
/** The sandbox file's schema, its reader and the defaults a new agent gets. */
export { DEFAULT_SANDBOX_TOML, parseSandboxSpec, SandboxSpec } from "./sandbox_spec.ts";
