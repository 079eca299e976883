import { LinkError } from "../../core/base/mod.ts";
import type { Command, Group, Io } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

async function agentOf(io: Io, name: string | undefined) {
  const [{ resolveAgent }, ctx] = await Promise.all([import("../../core/agent/mod.ts"), contextOf(io)]);
  return { ctx, agent: await resolveAgent(ctx, name) };
}

/** A time in a zone as a person reads it: "2026-12-24 18:00 Europe/Berlin". */
function inZone(iso: string, zone: string): string {
  const local = new Intl.DateTimeFormat("sv-SE", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).format(new Date(iso));
  return `${local} ${zone}`;
}

const list: Command = {
  summary: "List the agent's scheduled jobs, who set each, and when each is next due",
  usage: "lnk agent schedule list [--agent <name>] [--json]",
  examples: ["lnk agent schedule list", "lnk agent schedule list --json"],
  details: "Shows each job's id, when it fires, when it is next due (in its zone), its kind, who set it\n" +
    "(you, or the agent), its thread and its message. A file of the schedule that is not a job is named.",
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { listAgentJobs } = await import("../../core/scheduler/mod.ts");
    const listed = await listAgentJobs(ctx.paths, agent, { env: io.env, now: Date.now() });
    if (flags.bool("json")) {
      io.print({ agent: agent.name, jobs: listed.jobs, broken: listed.broken });
      return;
    }
    if (listed.jobs.length === 0) io.print(`Agent "${agent.name}" has no scheduled job`);
    for (const { job, next, zone, firing } of listed.jobs) {
      const when = job.when.kind === "at"
        ? `at ${job.when.at}`
        : `cron "${job.when.cron}" in ${job.when.zone}`;
      const due = firing ? `firing (${firing})` : next ? `next ${inZone(next, zone)}` : "done";
      io.print(`${job.id}  ${when}  ${due}  ${job.kind} set by ${job.set_by}  ${job.thread}\n  ${job.text}`);
    }
    for (const { file, why } of listed.broken) io.note(`Not a job: ${file}: ${why}`);
  },
};

const add: Command = {
  summary: "Schedule a message to the agent: at a time, after a delay, or on a cron expression",
  usage: "lnk agent schedule add (--at <ISO time> | --in <delay> | --cron <expr> [--zone <tz>]) <message> " +
    "[--thread <connection:chat>] [--agent <name>] [--json]",
  examples: [
    'lnk agent schedule add --in 10m "Remind me to call Bo"',
    'lnk agent schedule add --cron "30 8 * * 1-5" --zone Europe/Berlin "Summarise my inbox"',
    "lnk agent schedule add --at 2026-12-24T18:00:00+01:00 --thread telegram:123456 Wish me a merry Christmas",
  ],
  details: "The message reaches the agent as your own, when it is due, in the thread (link:main unless\n" +
    "--thread names another), and its answer goes to that thread: on link it is printed first by your next\n" +
    "`lnk agent chat`, on a connection it is sent to your own chat there. --cron takes five fields\n" +
    "(minute hour day-of-month month day-of-week) in --zone, the agent's time zone unless given.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "at", "in", "cron", "zone", "thread"], boolean: ["json"], positionals: 10_000 },
      this.usage,
    );
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { addOwnerJob } = await import("../../core/scheduler/mod.ts");
    const when = {
      at: flags.string("at"),
      in: flags.string("in"),
      cron: flags.string("cron"),
      zone: flags.string("zone"),
    };
    const job = await addOwnerJob(ctx.paths, agent, {
      when,
      text: flags.positionals.join(" "),
      thread: flags.string("thread"),
    }, { env: io.env, now: Date.now() });
    if (flags.bool("json")) io.print({ agent: agent.name, job });
    else io.print(`Scheduled ${job.id} for agent "${agent.name}" on ${job.thread}`);
  },
};

const remove: Command = {
  summary: "Remove one of the agent's scheduled jobs",
  usage: "lnk agent schedule remove <id> [--agent <name>] [--json]",
  examples: ["lnk agent schedule remove j-0123456789abcdefghij"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const id = flags.positionals[0];
    if (id === undefined) {
      throw new LinkError("USAGE", "Cannot remove a job: name its id", {
        hint: "Run `lnk agent schedule list` to see the ids",
      });
    }
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { removeAgentJob } = await import("../../core/scheduler/mod.ts");
    await removeAgentJob(ctx.paths, agent, id);
    if (flags.bool("json")) io.print({ agent: agent.name, removed: id });
    else io.print(`Removed ${id} from agent "${agent.name}"`);
  },
};

const next: Command = {
  summary: "Say when the agent's next job is due: what a machine that wakes the agent itself reads",
  usage: "lnk agent schedule next [--agent <name>] [--json]",
  examples: ["lnk agent schedule next --json"],
  details:
    'With `[tool.scheduler] wake = "address"` in the agent\'s spec no runner sits on the agent: the\n' +
    "machine reads this, and at that time runs `lnk agent schedule run`. Prints nothing due when no job\n" +
    'ever will be. With --json: {"agent", "wake", "next"}, next an ISO time or null.',
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const [{ listAgentJobs }, { loadAgentConfig }] = await Promise.all([
      import("../../core/scheduler/mod.ts"),
      import("../../core/agent/mod.ts"),
    ]);
    const { spec } = await loadAgentConfig(ctx.paths, agent);
    const listed = await listAgentJobs(ctx.paths, agent, { env: io.env, now: Date.now() });
    const due = listed.jobs.flatMap((j) => j.next ? [j.next] : []).sort()[0] ?? null;
    const wake = spec.tool.scheduler.wake;
    if (flags.bool("json")) io.print({ agent: agent.name, wake, next: due });
    else {io.print(
        due ? `Agent "${agent.name}" has a job due at ${due}` : `Agent "${agent.name}" has nothing due`,
      );}
  },
};

const runDue: Command = {
  summary: "Fire the agent's jobs that are due now, through its door and way in, then end",
  usage: "lnk agent schedule run [--agent <name>] [--json]",
  examples: ["lnk agent schedule run", "lnk agent schedule run --json"],
  details:
    "Fires each job due now (and one a runner left half fired) as a runner would, once each: what a\n" +
    'machine runs at the time `lnk agent schedule next` gave, for an agent with wake = "address". A firing\n' +
    'reaches the agent through its door, which wakes it. With --json: {"agent", "fired", "next"}.',
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { ctx, agent } = await agentOf(io, flags.string("agent"));
    const { fireDueJobs } = await import("../../core/scheduler/mod.ts");
    const done = await fireDueJobs(ctx.paths, agent);
    const due = done.next === undefined ? null : new Date(done.next).toISOString();
    if (flags.bool("json")) io.print({ agent: agent.name, fired: done.fired, next: due });
    else {io.print(
        `Fired ${done.fired} job${done.fired === 1 ? "" : "s"} of agent "${agent.name}"${
          due ? `; the next is due at ${due}` : ""
        }`,
      );}
  },
};

/** `lnk agent schedule ...`: the jobs the agent and its owner set, seen and changed by the owner. */
export const schedule: Group = {
  summary: "See, add and remove the messages scheduled for the agent, yours and its own",
  commands: { list, add, remove, next, run: runDue },
};
