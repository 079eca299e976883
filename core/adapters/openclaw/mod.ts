/**
 * OpenClaw's adapter: installed from npm, configured in the harness home, its `openclaw acp` run
 * under the hub with its gateway beside it in the agent's sandbox.
 * @module
 */
export { BROWSER_RISK, openclawAdapter } from "./openclaw_adapter.ts";
export {
  CONFIG_FILE,
  CONFIGURED_FILE,
  configureOpenClaw,
  DOCTOR_FILE,
  TOKEN_FILE,
} from "./openclaw_config.ts";
export { installedVersion, installOpenClaw, OPENCLAW_RELEASE } from "./openclaw_install.ts";
export { gatewayHealth, runOpenClawLaunchRole } from "./openclaw_launch.ts";
