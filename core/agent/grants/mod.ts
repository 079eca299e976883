/**
 * An agent's grants in use: `lnk agent allow`/`deny` on its sandbox file, the policy its harness
 * runs with (both grant layers), its model key added by the proxy or held by the harness,
 * `lnk agent harness run` and `check` in a sandbox built as the harness's, and what every path of
 * the agent runs with.
 * @module
 */
/** Changes the agent's sandbox file with the grant flags, keeping its comments. */
export { changeGrants, type GrantChange, type GrantsChanged } from "./change_grants.ts";
/** The harness's grant layer, `~/.lnk/harnesses/<harness>.toml`. */
export { type HarnessLayer, loadHarnessLayer } from "./harness_layer.ts";
/** The policy an agent's harness gets: both layers, its folders, its home. */
export { harnessHomeOf, type HarnessPolicy, harnessPolicy, policySandboxFields } from "./harness_policy.ts";
/** Whether the proxy adds the model key, the keys it adds, and what the harness holds instead. */
export {
  keyWired,
  MODEL_KEY_PLACEHOLDER,
  modelKeysFor,
  type ModelWiring,
  modelWiring,
  type ModelWiringOptions,
  WIRED_BY_DEFAULT,
} from "./model_keys.ts";
/** `lnk agent secret wire|hold`. */
export { setKeyWiring } from "./set_key_wiring.ts";
/** A sandbox built as the harness's, with a proxy of its own. */
export { type HarnessSandbox, type HarnessSandboxOptions, startHarnessSandbox } from "./harness_sandbox.ts";
/** `lnk agent harness run -- <command>`. */
export { harnessRun } from "./harness_run.ts";
/** `lnk agent harness check`, its rows, and the probes it runs inside. */
export { type HarnessCheck, harnessCheck, type HarnessCheckOptions } from "./harness_check.ts";
export { type CheckRow } from "./planned_check.ts";
export { type NetworkFacts } from "./network_checks.ts";
export { Probe, ProbeAnswer, ProbeAnswers, ProbeList } from "./probe_protocol.ts";
/** Runs the check's probes inside the sandbox (`lnk agent harness probe`). */
export { runProbes, type RunProbesOptions } from "./run_probes.ts";
/** What every path of the agent runs with (`lnk agent show --permissions`). */
export {
  type AgentPath,
  type AgentPermissions,
  agentPermissions,
  type ProtectedPermissions,
} from "./agent_permissions.ts";
/** `lnk agent share` and `unshare`: `[access] message` alone, its comments kept. */
export { type AccessChanged, changeAccess } from "./change_access.ts";
