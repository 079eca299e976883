/**
 * Link Scheduler's runners (PRC-6, PRC-7, U-47): one process a time zone, its times its
 * process's zone, fed by a file of agents and their ways in that it reads again when it changes.
 * Jobs are files of the agent's `Agent/schedule/jobs/`, one a job (job.ts, job_store.ts).
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
export { keepAgentRunner, type KeptRunner, type RunnerOfAgent, startAgentRunner } from "./agent_runner.ts";
/** The shared bridge's runners, one a time zone. */
export { RunnerPool, type ScheduledAgent } from "./runner_pool.ts";
/** Time zones: whether one is known, and the machine's. */
export { agentTimeZone, isTimeZone, systemTimeZone } from "./time_zone.ts";
/** A job: its schema, when it is due next, checking when it fires. */
export {
  checkWhen,
  Job,
  JobId,
  JobReply,
  JobThread,
  JobWhen,
  newJobId,
  nextDue,
  replyToThread,
} from "./job.ts";
/** An agent's jobs, one file each in Agent/schedule/jobs/. */
export { type JobListing, JobStore } from "./job_store.ts";
/** The firings of an agent's jobs, one file a (job, due), each step kept before the next. */
export { FiringRecord, FiringRecords, firingRequest, FiringState, type JobLock } from "./firing_record.ts";
/** Which due of a job fires now, with a catch-up window for dues missed while down. */
export { beforeFirstDue, type DueToFire, dueToFire } from "./due_to_fire.ts";
/** What a firing does outside the runner's files, swapped in tests (SCH-1); the runner's own. */
export { type FiringDriver } from "./firing_driver.ts";
export { doorDriver } from "./door_driver.ts";
/** Firing one job, exactly once, each step kept before the next. */
export { type FiringContext, isFinal, runJob } from "./fire_job.ts";
export { type FiredDue, fireDueJobs } from "./fire_due.ts";
/** One agent's jobs, watched and each fired when due. */
export { AgentSchedule, type AgentScheduleOptions, KEEP_DONE_MS } from "./agent_schedule.ts";
/** Retrying a firing's step with backoff. */
export { RETRY_FIRST_MS, RETRY_MAX_MS } from "./retry.ts";
/** The owner's side: `lnk agent schedule list|add|remove`. */
export {
  addOwnerJob,
  listAgentJobs,
  type ListedJob,
  OWNER_THREAD,
  type OwnerWhen,
  removeAgentJob,
} from "./owner_jobs.ts";
/** The schedules of a runner's agents, following its roster. */
export { RunnerSchedules, type RunnerSchedulesOptions } from "./runner_schedules.ts";
/** Link Scheduler's tools, the MCP server the tool proxy serves, and the daily count. */
export {
  type CallMeta,
  DAILY_COUNT_FILE,
  DailyCount,
  readCallMeta,
  SCHEDULER_SERVER,
  type SchedulerToolsContext,
  schedulerToolServer,
} from "./tools/mod.ts";
