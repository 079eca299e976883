/**
 * An outside harness's setup steps at its agent's start (SBX-13, SBX-14, ADP-1, ADP-2, ADP-9,
 * ADP-15): `install`, `configure` and `link`, each in a sandbox of its own behind a proxy of its
 * own, and the `health` check in one with no network but the harness's own port.
 * @module
 */
/** Runs the steps a start needs, and the health check. */
export { runHealthStep, runSetup, type SetupDone, type SetupOptions } from "./run_setup.ts";
/** A running outside harness's health: its port plainly, else its adapter's health check (SBX-15). */
export { type HarnessHealth, harnessHealth } from "./harness_health.ts";
/** One step in its sandbox, its bound and where it reaches. */
export {
  runSetupStep,
  SETUP_STEPS,
  type SetupStep,
  STEP_BOUND_MS,
  type StepNetwork,
  type StepRun,
} from "./setup_step.ts";
/** The `.lnk/configured` record and what its hash covers (ADP-1). */
export {
  type ConfiguredInputs,
  configuredPath,
  ConfiguredRecord,
  readConfigured,
} from "./configured_hash.ts";
/** The marker of a finished install, beside the install folder. */
export { InstallMarker, markerPath, readInstallMarker } from "./install_marker.ts";
