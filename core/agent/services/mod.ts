/**
 * Services: one interface with three backends (systemd --user, launchd, detached process group),
 * named from the agent's ID.
 * @module
 */
/** The service interface. */
export type { ServiceBackend, ServiceDefinition, ServiceState } from "./service_backend.ts";
/** Service names from an agent's ID, and the names a harness may not claim. */
export {
  checkHarnessServiceName,
  type ServiceNames,
  serviceNames,
  type ServiceRole,
  SHARED_BRIDGE_NAMES,
} from "./service_names.ts";
/** The backends. */
export { detachedBackend } from "./detached.ts";
export { systemdBackend, systemdUnit } from "./systemd.ts";
export { launchdBackend, launchdPlist } from "./launchd.ts";
/** Picks this machine's backend. */
export { pickBackend } from "./pick_backend.ts";
/** Process liveness checks. */
export { processAlive, signalGroup, waitForExit } from "./process_state.ts";
