/**
 * DeepSeek Harness's adapter: `dsh` installed from npm, configured in the harness home, its
 * `dsh --profile acp` run on stdio under the hub in the agent's sandbox.
 * @module
 */
export { deepseekAdapter } from "./deepseek_adapter.ts";
export {
  CONFIGURED_FILE,
  configureDsh,
  CREDENTIALS_FILE,
  DSH_HOME_DIR,
  KEY_VARIABLE,
  PLACEHOLDER_KEY,
  PROVIDER,
  SETTINGS_FILE,
} from "./dsh_config.ts";
export { DSH_PACKAGE, DSH_RELEASE, installDsh, installedVersion } from "./dsh_install.ts";
export { ACP_ARGS, LIVE_FILE, runDshLaunchRole } from "./dsh_launch.ts";
