/**
 * What tests of more than one folder share: temporary homes, running the CLI in-process and as a
 * child, a fake clock, services' logs and processes, callers as another user and on raw sockets.
 *
 * The kits of one subsystem are imported by their own path, so a test loads (and probes the machine
 * for) only what it sets up: sandbox.ts and sandbox_as_user.ts (real bubblewrap, as root and as an
 * ordinary user), sandboxed_agent.ts, shared_harness.ts, shared_bridge.ts, harness_fixture.ts,
 * tool_fixture.ts, store_contract.ts, store_driver.ts, proxy.ts and demo_bridge.ts.
 * @module
 */
export { type TempHome, tempHome, type TestEnv, testEnv } from "./temp_home.ts";
export { type CliResult, runCli, type RunCliOptions, runJson } from "./run_cli.ts";
export { runLnk, type RunLnkOptions } from "./run_lnk.ts";
export { FakeClock, settle } from "./fake_clock.ts";
export { logEntries, type LogEntry, serviceLog, waitForLog } from "./service_log.ts";
export { processesNaming, type ProcessInfo, processTree } from "./agent_processes.ts";
export { killConnectionBridge } from "./connection_bridge.ts";
export { OtherUserClient, otherUsersUnavailable } from "./other_user.ts";
export { RawClient } from "./raw_client.ts";
