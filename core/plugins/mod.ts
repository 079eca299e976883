/**
 * Plugins: `lnk-<name>` programs on the PATH that plug in as `lnk <name>` (CLI-8).
 * @module
 */
/** Finds and runs a plugin program. */
export { findPlugin, type Plugin, runPlugin } from "./find_plugin.ts";
