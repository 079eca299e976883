/**
 * Hermes's adapter (Nous Research's hermes-agent): installed by pip into a venv, configured in the
 * harness home's HERMES_HOME, its `hermes acp` run under the hub in the agent's sandbox.
 * @module
 */
/** The adapter, and where it installs Hermes for an input. */
export { hermesAdapter } from "./hermes_adapter.ts";
/** Configure, and the files of the harness home it writes. */
export {
  CONFIG_FILE,
  CONFIGURED_FILE,
  configureHermes,
  ENV_FILE,
  HERMES_DIR,
  type HermesSetup,
  PLACEHOLDER_KEY,
} from "./hermes_config.ts";
/** The release it installs, the install's check, and the indexes pip installs from. */
export {
  HERMES_RELEASE,
  HERMES_REQUIREMENT,
  installBin,
  installedVersion,
  installHermes,
  pipIndexHosts,
} from "./hermes_install.ts";
/** The endpoint's launcher, `lnk harness launch hermes`. */
export { runHermesLaunchRole } from "./hermes_launch.ts";
