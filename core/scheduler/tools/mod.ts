/**
 * Link Scheduler's tools (SCH-1, SCH-7..10, TEAM-5, TEAM-8): one MCP server the tool proxy serves,
 * writing jobs the runner fires, and the daily count of messages an agent starts.
 * @module
 */
export { SCHEDULER_SERVER, type SchedulerToolsContext, schedulerToolServer } from "./scheduler_tools.ts";
export { type CallMeta, readCallMeta } from "./call_meta.ts";
export { DAILY_COUNT_FILE, DailyCount } from "./daily_count.ts";
