import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Clock, isLinkError, LinkError, type LinkPaths, logger } from "../../base/mod.ts";
import { formatPrincipal } from "../../spec/mod.ts";
import { type Teammate, teammatesOf } from "../../teams/mod.ts";
import { checkWhen, type Job, type JobWhen, newJobId, nextDue, replyToThread } from "../job.ts";
import { ARGUMENT_SPELLING, whenFromGiven } from "../when_given.ts";
import type { JobStore } from "../job_store.ts";
import { type CallMeta, readCallMeta } from "./call_meta.ts";
import type { DailyCount } from "./daily_count.ts";

const log = logger("scheduler-tools");

/** The tool proxy's path for Link Scheduler. */
export const SCHEDULER_SERVER = "scheduler";

/** The longest message or task a tool takes, as a job keeps it. */
const MAX_TEXT = 100_000;

/** What the SDK hands a tool with its arguments: the call's `_meta` among the rest. */
interface CallExtra {
  _meta?: Record<string, unknown>;
}

type ScheduleArgs = { message: string; at?: string; in?: string; cron?: string; zone?: string };
type SubagentArgs = { task: string; tools?: string[] };
type SendArgs = { text: string; to?: string; team?: string };

/** What Link Scheduler's tools act with: the one agent its proxy serves, and that agent's caps. */
export interface SchedulerToolsContext {
  /** The agent calling, the tool proxy's own (never anything a call says). */
  readonly agentId: string;
  /** Its jobs, in its `Agent/schedule/jobs/`. */
  readonly jobs: JobStore;
  /** Its messages started today (per_day). */
  readonly count: DailyCount;
  /** The home whose team files are read afresh at each `send` (TEAM-7). */
  readonly paths: LinkPaths;
  /** Its time zone: `[run] time_zone`, else the machine's. */
  readonly zone: string;
  /** `[tool.scheduler] hops` and `per_day` (SCH-10, TEAM-8). */
  readonly caps: { readonly hops: number; readonly perDay: number };
  /**
   * Whether its harness narrows a conversation's tools to `_meta link.local/tools` (SCH-8: the
   * adapter contract's `tools`); a narrowed subagent is refused for a harness that does not.
   */
  readonly narrows: boolean;
  readonly clock: Clock;
}

/**
 * Link Scheduler's tools as one MCP server (SCH-1): `schedule`, `list_jobs`, `cancel_job`,
 * `start_subagent` and `send`. Each takes its conversation and hops from the call's `_meta`
 * (SCH-9) and keeps what it starts as a job the runner fires through the agent's way in; a
 * refusal or a wrong argument is a tool error the model reads.
 */
export function schedulerToolServer(ctx: SchedulerToolsContext): McpServer {
  const server = new McpServer({ name: "link-scheduler", version: "1.0.0" });
  server.registerTool(
    "schedule",
    {
      description: "Schedules a message to yourself, in this conversation: a reminder or a task for later. " +
        "Give exactly one of `at` (an ISO 8601 time with its offset, such as 2026-12-24T18:00:00+01:00), " +
        '`in` (a delay such as "10m", "2h" or "1d") or `cron` (five fields: minute hour day-of-month month ' +
        `day-of-week, such as "30 8 * * 1-5", read in \`zone\`, by default ${ctx.zone}). When it is due, ` +
        "the message comes to you here as a message from yourself, and your answer goes to this conversation's chat.",
      inputSchema: {
        message: z.string().min(1).max(MAX_TEXT).describe("What you will be told when it is due"),
        at: z.string().optional().describe("An ISO 8601 time with its offset or Z"),
        in: z.string().optional().describe('A delay from now: "30s", "10m", "2h", "1d", "1h30m"'),
        cron: z.string().optional().describe('A cron expression, such as "0 9 * * *" for every day at 9:00'),
        zone: z.string().optional().describe(`An IANA time zone for cron; ${ctx.zone} by default`),
      },
    },
    (args: ScheduleArgs, extra: CallExtra) =>
      answer("schedule", () => schedule(ctx, readCallMeta(extra._meta), args)),
  );
  server.registerTool("list_jobs", {
    description:
      "Lists your scheduled messages, subagents and messages to teammates that have not fired yet, " +
      "each with its id (for cancel_job), when it is due next, and who set it (you, or your owner).",
    inputSchema: {},
  }, () => answer("list_jobs", () => listJobs(ctx)));
  server.registerTool("cancel_job", {
    description:
      "Cancels one of your jobs by its id, as list_jobs shows it. A job your owner set is theirs " +
      "to change, not yours.",
    inputSchema: { id: z.string().min(1).max(100).describe("The job's id, such as j-0123456789abcdefghij") },
  }, (args: { id: string }) => answer("cancel_job", () => cancelJob(ctx, args.id)));
  server.registerTool(
    "start_subagent",
    {
      description:
        "Starts a subagent: a conversation of your own that works on `task` alone and answers back " +
        "here, as a message from the subagent, when it is done. Give `tools` to let it use only some of your " +
        "tools (it never gets one you do not have); without `tools` it has all of yours. Use it for work " +
        "that can run on its own while you go on.",
      inputSchema: {
        task: z.string().min(1).max(MAX_TEXT).describe("Everything the subagent needs to do the work"),
        tools: z.array(z.string().min(1).max(200)).max(200).optional().describe(
          "The names of the tools it may use, among yours",
        ),
      },
    },
    (args: SubagentArgs, extra: CallExtra) =>
      answer("start_subagent", () => startSubagent(ctx, readCallMeta(extra._meta), args)),
  );
  server.registerTool("send", {
    description:
      "Sends a message to a teammate (an agent on one of your teams) by its name in the team, or " +
      "to every teammate of a team when you give `team` alone. It reaches their conversation with you, " +
      "marked as from you, and their answer comes back to this conversation. A chain of messages between " +
      `agents stops after ${ctx.caps.hops} hops, and you may start ${ctx.caps.perDay} messages a day.`,
    inputSchema: {
      text: z.string().min(1).max(MAX_TEXT).describe("The message"),
      to: z.string().min(1).max(64).optional().describe("The teammate's name in the team"),
      team: z.string().min(1).max(64).optional().describe(
        "The team: alone, to all its members; with `to`, where that name is",
      ),
    },
  }, (args: SendArgs, extra: CallExtra) => answer("send", () => send(ctx, readCallMeta(extra._meta), args)));
  return server;
}

/** A tool's text for the model; a LinkError is the error the model reads, with its hint. */
async function answer(tool: string, run: () => Promise<string>): Promise<CallToolResult> {
  try {
    return { content: [{ type: "text", text: await run() }] };
  } catch (err) {
    if (!isLinkError(err)) {
      log.error("A scheduler tool failed", { tool, error: String(err) });
      throw err;
    }
    log.info("A scheduler tool refused a call", { tool, code: err.code });
    const text = err.hint ? `${err.message}\n${err.hint}` : err.message;
    return { content: [{ type: "text", text }], isError: true };
  }
}

async function schedule(
  ctx: SchedulerToolsContext,
  meta: CallMeta,
  args: ScheduleArgs,
): Promise<string> {
  const now = ctx.clock.now();
  const when = await whenFromGiven(args, { spelling: ARGUMENT_SPELLING, now, zone: () => ctx.zone });
  checkWhen(when, now);
  await ctx.count.take(1, ctx.caps.perDay, now);
  const job: Job = {
    v: 1,
    id: newJobId(),
    kind: "schedule",
    set_by: "agent",
    created: new Date(now).toISOString(),
    when,
    to: ctx.agentId,
    thread: meta.thread,
    text: args.message,
    // From the agent itself, never the owner's (SCH-2).
    from: formatPrincipal({ kind: "agent", id: ctx.agentId }),
    hops: meta.hops,
    reply: replyToThread(meta.thread),
  };
  await ctx.jobs.add(job);
  log.info("Job kept", { agent: ctx.agentId, job: job.id, kind: job.kind });
  const next = nextDue(when, now);
  return `Scheduled ${job.id}: ${describeWhen(when)}${
    next === undefined ? "" : `, next due ${new Date(next).toISOString()}`
  }`;
}

function describeWhen(when: JobWhen): string {
  return when.kind === "at" ? `at ${when.at}` : `on "${when.cron}" in ${when.zone}`;
}

async function listJobs(ctx: SchedulerToolsContext): Promise<string> {
  const now = ctx.clock.now();
  const { jobs } = await ctx.jobs.list();
  if (jobs.length === 0) return "You have no jobs.";
  return JSON.stringify(
    jobs.map((j) => ({
      id: j.id,
      kind: j.kind,
      set_by: j.set_by === "owner" ? "your owner" : "you",
      when: j.when.kind === "at" ? j.when.at : `${j.when.cron} (${j.when.zone})`,
      next_due: (() => {
        const next = nextDue(j.when, now - 1);
        return next === undefined ? null : new Date(next).toISOString();
      })(),
      to: j.to === ctx.agentId ? "you" : j.to,
      thread: j.thread,
      text: j.text.length > 300 ? `${j.text.slice(0, 300)}…` : j.text,
    })),
    null,
    1,
  );
}

async function cancelJob(ctx: SchedulerToolsContext, id: string): Promise<string> {
  const job = await ctx.jobs.get(id);
  if (!job) {
    throw new LinkError("INVALID", `Cannot cancel job "${id}": you have no job with that id`, {
      hint: "Call list_jobs to see your jobs and their ids",
    });
  }
  if (job.set_by === "owner") {
    throw new LinkError("REFUSED", `Cannot cancel job ${id}: your owner set it, so only they can remove it`, {
      hint: "Ask your owner to remove it, if it should go",
    });
  }
  const removed = await ctx.jobs.remove(id);
  log.info("Job cancelled", { agent: ctx.agentId, job: id, removed });
  return removed ? `Cancelled ${id}.` : `Job ${id} had already fired or been cancelled.`;
}

/** Refuses a message that would go past the hop cap, saying so to the model (TEAM-8). */
function checkHops(ctx: SchedulerToolsContext, meta: CallMeta, what: string): number {
  const hops = meta.hops + 1;
  if (hops > ctx.caps.hops) {
    throw new LinkError(
      "REFUSED",
      `Cannot ${what}: this conversation's message has already travelled ${meta.hops} hops between agents, ` +
        `and the cap is ${ctx.caps.hops} ([tool.scheduler] hops)`,
      { hint: "Answer in this conversation instead; the chain of messages stops here" },
    );
  }
  return hops;
}

async function startSubagent(
  ctx: SchedulerToolsContext,
  meta: CallMeta,
  args: SubagentArgs,
): Promise<string> {
  const hops = checkHops(ctx, meta, "start a subagent");
  let tools: string[] | undefined;
  if (args.tools !== undefined) {
    if (!ctx.narrows) {
      throw new LinkError(
        "UNSUPPORTED",
        "Cannot start a subagent with some of your tools: this agent's harness cannot narrow a conversation's tools",
        { hint: "Start it without tools, and it has all of yours" },
      );
    }
    if (meta.tools === undefined) {
      throw new LinkError(
        "INVALID",
        "Cannot start a subagent with some of your tools: the harness did not say this conversation's tools",
        { hint: "Start it without tools, and it has all of yours" },
      );
    }
    // Narrowed, never widened (SCH-7): what was asked among what the parent has.
    const parent = new Set(meta.tools);
    tools = [...new Set(args.tools)].filter((t) => parent.has(t));
  } else if (ctx.narrows && meta.tools !== undefined) {
    tools = [...meta.tools];
  }
  const now = ctx.clock.now();
  await ctx.count.take(1, ctx.caps.perDay, now);
  const id = newJobId();
  const job: Job = {
    v: 1,
    id,
    kind: "subagent",
    set_by: "agent",
    created: new Date(now).toISOString(),
    when: { kind: "at", at: new Date(now).toISOString() },
    to: ctx.agentId,
    thread: `sub:${id}`,
    text: args.task,
    from: formatPrincipal({ kind: "agent", id: ctx.agentId }),
    hops,
    ...(tools === undefined ? {} : { tools }),
    reply: {
      to: "agent",
      agent: ctx.agentId,
      thread: meta.thread,
      from: formatPrincipal({ kind: "subagent", id }),
    },
  };
  await ctx.jobs.add(job);
  log.info("Job kept", { agent: ctx.agentId, job: id, kind: job.kind });
  const left = args.tools?.filter((t) => !tools?.includes(t)) ?? [];
  return `Started subagent ${id}; its answer comes back to this conversation.` +
    (tools === undefined ? "" : ` Its tools: ${tools.length ? tools.join(", ") : "none"}.`) +
    (left.length ? ` Left out, as this conversation does not have them: ${left.join(", ")}.` : "");
}

async function send(
  ctx: SchedulerToolsContext,
  meta: CallMeta,
  args: SendArgs,
): Promise<string> {
  const mates = await teammatesOf(ctx.paths, ctx.agentId);
  const targets = pickTeammates(mates, args);
  const hops = checkHops(ctx, meta, "send the message");
  const now = ctx.clock.now();
  await ctx.count.take(targets.length, ctx.caps.perDay, now);
  const from = formatPrincipal({ kind: "agent", id: ctx.agentId });
  const sent: string[] = [];
  for (const mate of targets) {
    const job: Job = {
      v: 1,
      id: newJobId(),
      kind: "send",
      set_by: "agent",
      created: new Date(now).toISOString(),
      when: { kind: "at", at: new Date(now).toISOString() },
      to: mate.id,
      // Its conversation with the sender, or the team's when sent to all (TEAM-5).
      thread: args.to === undefined ? `team:${mate.team}` : from,
      text: args.text,
      from,
      hops,
      reply: {
        to: "agent",
        agent: ctx.agentId,
        thread: meta.thread,
        from: formatPrincipal({ kind: "agent", id: mate.id }),
      },
    };
    await ctx.jobs.add(job);
    log.info("Job kept", { agent: ctx.agentId, job: job.id, kind: job.kind, to: mate.id });
    sent.push(`${mate.name} (${mate.team})`);
  }
  return `Sent to ${sent.join(", ")}; the answer comes back to this conversation.`;
}

/** The teammates a `send` goes to, by name, by team, or both; refused naming who there is. */
function pickTeammates(mates: Teammate[], args: { to?: string; team?: string }): Teammate[] {
  const known = mates.map((m) => `${m.name} (${m.team})`).join(", ") || "none: you are on no team";
  if (args.to === undefined && args.team === undefined) {
    throw new LinkError("INVALID", "Cannot send: say whom to, with to (a teammate's name) or team", {
      hint: `Your teammates: ${known}`,
    });
  }
  const picked = mates.filter((m) =>
    (args.team === undefined || m.team === args.team) &&
    (args.to === undefined || m.name.toLowerCase() === args.to.toLowerCase())
  );
  if (picked.length === 0) {
    const whom = args.to === undefined ? `team "${args.team}"` : `"${args.to}"`;
    throw new LinkError("INVALID", `Cannot send to ${whom}: no teammate of yours is by that name`, {
      hint: `Your teammates: ${known}`,
    });
  }
  if (args.to !== undefined && new Set(picked.map((m) => m.id)).size > 1) {
    throw new LinkError(
      "INVALID",
      `Cannot send to "${args.to}": teammates of that name are on several teams`,
      {
        hint: `Give team too: ${picked.map((m) => m.team).join(" or ")}`,
      },
    );
  }
  // One message a teammate, even when the teammate shares more than one team.
  const seen = new Set<string>();
  return picked.filter((m) => !seen.has(m.id) && seen.add(m.id));
}
