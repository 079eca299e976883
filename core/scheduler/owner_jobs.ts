import { LinkError, type LinkPaths } from "../base/mod.ts";
import { type AgentSettings, layoutOf, loadAgentConfig } from "../agent/mod.ts";
import { beforeFirstDue } from "./due_to_fire.ts";
import { FiringRecords } from "./firing_record.ts";
import { checkWhen, type Job, JobThread, type JobWhen, newJobId, nextDue } from "./job.ts";
import { JobStore } from "./job_store.ts";
import { agentTimeZone } from "./time_zone.ts";
import { FLAG_SPELLING, whenFromGiven, type WhenGiven } from "./when_given.ts";

/** The thread a job the owner sets answers on when none is named: `lnk agent chat`'s own. */
export const OWNER_THREAD = "link:main";

/** When the owner's job fires, as `lnk agent schedule add` takes it: exactly one of at, in, cron. */
export type OwnerWhen = WhenGiven;

/** A job as `lnk agent schedule list` shows it: the job, when it is next due, in which zone. */
export interface ListedJob {
  job: Job;
  /** When it is next due (ISO), none when it never will be again. */
  next?: string;
  /** The zone `next` is shown in: the cron job's, or the agent's. */
  zone: string;
  /** A firing under way, its state. */
  firing?: string;
}

/** The agent's jobs, each with when it is next due, and the files that are not jobs. */
export async function listAgentJobs(
  paths: LinkPaths,
  agent: AgentSettings,
  options: { env: { get(name: string): string | undefined }; now: number },
): Promise<{ jobs: ListedJob[]; broken: { file: string; why: string }[] }> {
  const schedule = layoutOf(paths, agent).collection("schedule");
  const zone = await zoneOf(paths, agent, options.env);
  const { jobs, broken } = await new JobStore(schedule).list();
  const records = (await new FiringRecords(schedule).all()).records;
  const listed = jobs.map((job): ListedJob => {
    const mine = records.filter((r) => r.job.id === job.id);
    const next = nextDue(job.when, mine.at(-1)?.due ?? beforeFirstDue(job));
    const firing = mine.find((r) => r.state === "taken" || r.state === "answered")?.state;
    return {
      job,
      ...(next === undefined ? {} : { next: new Date(next).toISOString() }),
      zone: job.when.kind === "cron" ? job.when.zone : zone,
      ...(firing ? { firing } : {}),
    };
  });
  return { jobs: listed, broken };
}

/**
 * Keeps a job the owner sets (`lnk agent schedule add`): set by the owner, from nobody else (the
 * owner's own message, SCH-2), its answer on the thread through the agent's way in (SCH-3).
 */
export async function addOwnerJob(
  paths: LinkPaths,
  agent: AgentSettings,
  input: { when: OwnerWhen; text: string; thread?: string },
  options: { env: { get(name: string): string | undefined }; now: number },
): Promise<Job> {
  const when = await whenOf(paths, agent, input.when, options);
  checkWhen(when, options.now);
  const thread = input.thread ?? OWNER_THREAD;
  if (!JobThread.safeParse(thread).success) {
    throw new LinkError("USAGE", `Cannot schedule on thread "${thread}": it is not a thread key`, {
      hint: "Give a thread as <connection>:<chat>, such as link:main or telegram:123456",
    });
  }
  if (!input.text.trim()) {
    throw new LinkError("USAGE", "Cannot schedule an empty message", {
      hint: 'Give the message after the flags: lnk agent schedule add --in 10m "Stand up and stretch"',
    });
  }
  const job: Job = {
    v: 1,
    id: newJobId(),
    kind: "schedule",
    set_by: "owner",
    created: new Date(options.now).toISOString(),
    when,
    to: agent.id,
    thread,
    text: input.text,
    hops: 0,
    reply: { to: "way-in", connection: thread.slice(0, thread.indexOf(":")), thread },
  };
  await new JobStore(layoutOf(paths, agent).collection("schedule")).add(job);
  return job;
}

/** Removes one of the agent's jobs; INVALID when it has none by that id. */
export async function removeAgentJob(paths: LinkPaths, agent: AgentSettings, id: string): Promise<void> {
  if (await new JobStore(layoutOf(paths, agent).collection("schedule")).remove(id)) return;
  throw new LinkError("INVALID", `Cannot remove job "${id}": agent "${agent.name}" has no such job`, {
    hint: `Run \`lnk agent schedule list --agent ${agent.name}\` to see its jobs`,
  });
}

function whenOf(
  paths: LinkPaths,
  agent: AgentSettings,
  given: OwnerWhen,
  options: { env: { get(name: string): string | undefined }; now: number },
): Promise<JobWhen> {
  return whenFromGiven(given, {
    spelling: FLAG_SPELLING,
    now: options.now,
    zone: () => zoneOf(paths, agent, options.env),
  });
}

async function zoneOf(
  paths: LinkPaths,
  agent: AgentSettings,
  env: { get(name: string): string | undefined },
): Promise<string> {
  const { spec } = await loadAgentConfig(paths, agent);
  return await agentTimeZone(env, spec.run.time_zone, layoutOf(paths, agent).specToml);
}
