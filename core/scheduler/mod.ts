/**
 * Link Scheduler's runners (PRC-6, PRC-7, U-47): one process a time zone, its times its
 * process's zone, fed by a file of agents and their ways in that it reads again when it changes.
 * The jobs themselves, and the tool that makes them, come later: a runner tracks its agents and
 * the firings under way (the seam), and fires nothing yet.
 * @module
 */
/** The role: `lnk scheduler runner --tz <zone>`. */
export { runRunnerRole } from "./run_runner_role.ts";
/** A runner's file: its zone and agents, where it lives, reading and writing it. */
export {
  agentRunnerFilePath,
  readRunnerFile,
  type RunnerAgent,
  RunnerFile,
  runnerFilePath,
  runnersDir,
  writeRunnerFile,
} from "./runner_file.ts";
/** The agents a runner fires for, kept across changes; the firing seam. */
export { type RosterChange, RunnerRoster } from "./runner_roster.ts";
/** Watching a runner's file. */
export { watchRunnerFile } from "./watch_runner_file.ts";
/** Starting one runner as a child, ended with its parent. */
export { type RunnerProcess, startRunner } from "./runner_process.ts";
/** The runner beside an agent's own bridge. */
export { startAgentRunner } from "./agent_runner.ts";
/** The shared bridge's runners, one a time zone. */
export { RunnerPool, type ScheduledAgent } from "./runner_pool.ts";
/** Time zones: whether one is known, and the machine's. */
export { isTimeZone, systemTimeZone } from "./time_zone.ts";
