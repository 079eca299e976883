/**
 * The vocabulary two layers above share: the schemas of an agent's two files, spec.toml (how it
 * runs: its opinions) and sandbox.toml (what it may reach, and its [limits]). Below the sandbox,
 * the proxy and Link Harness, which all read them; imports only core/base.
 * @module
 */
/** spec.toml: its schema, its reader and the defaults a new agent gets. */
export { DEFAULT_SPEC_TOML, parseSpec, Spec } from "./agent_spec.ts";
/** sandbox.toml: its schema, its reader and the defaults a new agent gets. */
export { DEFAULT_SANDBOX_TOML, parseSandboxSpec, SandboxSpec } from "./sandbox_spec.ts";
/** [limits]: processes, memory and the size of one file, and sizes as people write them. */
export { formatSize, Limits, Size } from "./limits_spec.ts";
/** Who a root-run sandbox's program is: an unprivileged uid of its own, and Link's range of them. */
export {
  isSandboxUid,
  RUN_IDENTITY,
  runsAsRoot,
  SANDBOX_UIDS,
  type SandboxIdentity,
} from "./sandbox_identity.ts";
/** Who a message is from, in the one grammar of `[access] message` and `Link-From` (ACS-2). */
export {
  accessFor,
  type ChatAccess,
  formatPrincipal,
  parsePrincipal,
  type Principal,
  WEBHOOK_NAME,
} from "./principal.ts";
