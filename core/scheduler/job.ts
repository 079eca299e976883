import { Cron } from "croner";
import { z } from "zod";
import { LinkError } from "../base/mod.ts";
import { isTimeZone } from "./time_zone.ts";

/** A job's id: `j-` and 20 letters and digits, made by newJobId. */
export const JobId = z.string().regex(/^j-[a-z0-9]{20}$/, "must be a job id such as j-0123456789abcdefghij");

/** An agent's id, as jobs name the agent a message goes to. */
const AgentId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/);

/** A thread key: `<connection>:<chat id>` (CON-10), as `link.local/thread` takes it. */
// deno-lint-ignore no-control-regex
export const JobThread = z.string().min(3).max(512).regex(/^[a-z0-9_-]+:[^\u0000-\u001f\u007f]+$/i);

/** When a job fires: once at an instant, or at each time a cron expression names in a zone. */
export const JobWhen = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("at"), at: z.iso.datetime({ offset: true }) }),
  z.strictObject({ kind: z.literal("cron"), cron: z.string().min(1).max(200), zone: z.string() }),
]);
export type JobWhen = z.infer<typeof JobWhen>;

/**
 * What is done with the answer to a job's message:
 * - `way-in`: sent out on the agent's own connection thread through its way in (SCH-3: the
 *   owner's own chat or an allowed group, or held for the next `lnk agent chat` on `link`);
 * - `agent`: a job of its own (TEAM-6), putting the answer into `agent`'s thread `thread` as a
 *   message from `from` (a subagent's answer to its parent, a teammate's to the sender);
 * - `none`: nobody waits for it (the harness's own tools may still send).
 */
export const JobReply = z.discriminatedUnion("to", [
  z.strictObject({
    to: z.literal("way-in"),
    connection: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
    thread: JobThread,
  }),
  z.strictObject({ to: z.literal("agent"), agent: AgentId, thread: JobThread, from: z.string().min(1) }),
  z.strictObject({ to: z.literal("none") }),
]);
export type JobReply = z.infer<typeof JobReply>;

/** Threads of Link's own that are no connection's chat: nothing is sent out on them. */
const NOT_CONNECTIONS = new Set(["agent", "sub", "team", "webhook", "subagent"]);

/**
 * Where an answer in a thread goes when nobody waits for it (SCH-3): out through the agent's way in
 * to that thread's own connection (the owner's chat, an allowed group, `link`'s next chat); nowhere
 * for a thread of Link's own (a teammate's, a subagent's, a webhook's), whose answers travel as jobs.
 */
export function replyToThread(thread: string): JobReply {
  const connection = thread.slice(0, thread.indexOf(":")).toLowerCase();
  if (NOT_CONNECTIONS.has(connection) || !/^[a-z][a-z0-9_-]{0,31}$/.test(connection)) return { to: "none" };
  return { to: "way-in", connection, thread };
}

/**
 * One job of Link Scheduler (SCH-1), a file of the agent's `Agent/schedule/jobs/`, which the
 * harness never sees or writes: a message that reaches agent `to` in thread `thread` through its
 * door when `when` says, from `from` with `hops`, its answer going where `reply` says.
 */
export const Job = z.strictObject({
  v: z.literal(1),
  id: JobId,
  /** What made it: a schedule, a subagent's task, a message to a teammate, an answer coming back. */
  kind: z.enum(["schedule", "subagent", "send", "answer"]),
  /** Who set it: the owner (`lnk agent schedule add`) or the agent (its scheduler tools, or Link). */
  set_by: z.enum(["owner", "agent"]),
  created: z.iso.datetime({ offset: true }),
  when: JobWhen,
  /** The agent the message goes to: this agent's own id, or a teammate's (`send`). */
  to: AgentId,
  /** The thread of `to` the message goes into. */
  thread: JobThread,
  text: z.string().min(1).max(100_000),
  /** `Link-From`: who the message is from; none for the owner's own (SCH-2). */
  from: z.string().min(1).optional(),
  /** `Link-Hops` the message carries (SCH-9, TEAM-8). */
  hops: z.number().int().min(0),
  /** `link.local/tools`: the conversation's tools, narrowed (SCH-7); none for all of them. */
  tools: z.array(z.string()).optional(),
  reply: JobReply,
});
export type Job = z.infer<typeof Job>;

/** A new job id: 20 random letters and digits. */
export function newJobId(): string {
  return jobIdOf(crypto.getRandomValues(new Uint8Array(20)));
}

/** The job id the first 20 of `bytes` spell, each a letter or digit: the same bytes, the same id. */
export function jobIdOf(bytes: Uint8Array): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return `j-${[...bytes.slice(0, 20)].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

/**
 * Checks when a job fires before it is kept, so a person or a model gets an error it can read:
 * a cron expression that does not parse, a zone that does not exist, an instant in the past.
 */
export function checkWhen(when: JobWhen, now: number): void {
  if (when.kind === "at") {
    if (Date.parse(when.at) <= now) {
      throw new LinkError("INVALID", `Cannot schedule at ${when.at}: that time has passed`, {
        hint: "Give a time in the future, or a delay such as 10m",
      });
    }
    return;
  }
  if (!isTimeZone(when.zone)) {
    throw new LinkError("INVALID", `Cannot schedule in time zone "${when.zone}": there is no such zone`, {
      hint: "Give an IANA time zone such as Europe/Berlin or America/New_York",
    });
  }
  try {
    new Cron(when.cron, { timezone: when.zone, paused: true });
  } catch (err) {
    throw new LinkError(
      "INVALID",
      `Cannot read the cron expression "${when.cron}": ${(err as Error).message}`,
      {
        hint: 'Give five fields: minute hour day-of-month month day-of-week, such as "30 8 * * 1-5"',
      },
    );
  }
}

/**
 * The first time a job is due strictly after `after` (ms since the epoch), or undefined when it
 * will never be due again. Cron times are read in the job's zone with its daylight saving: a time
 * the spring-forward day skips is due at the next valid time, and one the fall-back day repeats is
 * due once.
 */
export function nextDue(when: JobWhen, after: number): number | undefined {
  if (when.kind === "at") {
    const at = Date.parse(when.at);
    return at > after ? at : undefined;
  }
  const next = new Cron(when.cron, { timezone: when.zone, paused: true }).nextRun(new Date(after));
  return next ? next.getTime() : undefined;
}
