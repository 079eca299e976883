/**
 * What every test shares: temporary homes, running the CLI in-process and as a child, a fake clock.
 * @module
 */
export { type TempHome, tempHome, type TestEnv, testEnv } from "./temp_home.ts";
export { type CliResult, runCli, type RunCliOptions, runJson } from "./run_cli.ts";
export { runLnk, type RunLnkOptions } from "./run_lnk.ts";
export { FakeClock, settle } from "./fake_clock.ts";
