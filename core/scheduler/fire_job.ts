import { logger } from "../base/mod.ts";
import { beforeFirstDue, dueToFire } from "./due_to_fire.ts";
import type { FiringRecord } from "./firing_record.ts";
import { askUntilAnswered } from "./ask_until_answered.ts";
import { type FiringContext, stepFiring } from "./firing_context.ts";
import { FiringRecords as Records } from "./firing_record.ts";
import { type Job, JobId, jobIdOf, replyToThread } from "./job.ts";
import { JobStore } from "./job_store.ts";
import { Gone, withRetry } from "./retry.ts";

const log = logger("runner");

export type { FiringContext } from "./firing_context.ts";

/**
 * Fires what is due of one job, holding its lock: first a firing a dead runner left (taken or
 * answered), then the due that has come, if any (SCH-1); returns when the job is due next, or
 * undefined when it never will be (a one-shot job done, a job removed).
 */
export async function runJob(id: string, ctx: FiringContext): Promise<number | undefined> {
  using lock = await ctx.records.lock(id);
  const left = (await ctx.records.of(id)).find((r) => r.state === "taken" || r.state === "answered");
  if (left) {
    const fired = await fire(left, ctx, "resumed");
    if (!fired) return undefined;
    if (fired.state === "dropped") await ctx.jobs.remove(id);
    else {
      const job = await ctx.jobs.get(id);
      if (job) await afterFiring(job, fired.due, ctx);
      logFired(fired, ctx);
    }
  }
  for (;;) {
    const job = await ctx.jobs.get(id);
    const records = await ctx.records.of(id);
    if (!job) {
      if (records.length === 0) await lock.drop();
      return undefined;
    }
    const last = records.at(-1)?.due ?? beforeFirstDue(job);
    const now = ctx.clock.now();
    const next = dueToFire(job.when, last, now, ctx.catchUpMs);
    const fields = { agent: ctx.agentId, job: id };
    if (next.kind === "wait") return next.due;
    if (next.kind === "done") {
      await ctx.jobs.remove(id);
      return undefined;
    }
    if (next.kind === "skip") {
      log.warn("A job was missed by more than the catch-up window: it is skipped", {
        ...fields,
        missed: iso(next.missedFrom),
      });
      await ctx.records.note(job, now, {
        state: "skipped",
        now,
        note: `missed from ${iso(next.missedFrom)}`,
      });
      await afterFiring(job, now, ctx);
      continue;
    }
    if (next.missedFrom !== undefined) {
      log.warn("A job missed while the runner was down is fired once", {
        ...fields,
        due: iso(next.due),
        missed_from: iso(next.missedFrom),
      });
    }
    const taken = await ctx.records.take(job, next.due, now);
    if (!taken) continue; // kept meanwhile: read again
    ctx.onStep?.(taken);
    const fired = await fire(taken, ctx, "due");
    if (!fired) return undefined;
    // A job whose agent was removed is dropped whole: nothing of it can fire again.
    if (fired.state === "dropped") await ctx.jobs.remove(id);
    else {
      await afterFiring(job, next.due, ctx);
      logFired(fired, ctx);
    }
  }
}

/** Said once a firing is delivered and what it leaves is put away (a one-shot job gone). */
function logFired(record: FiringRecord, ctx: FiringContext): void {
  log.info("Job fired", {
    agent: ctx.agentId,
    job: record.job.id,
    due: iso(record.due),
    to: record.job.to,
    reply: record.job.reply.to,
    note: record.note,
  });
}

/** After a firing: a one-shot job is done; a cron job keeps its last firing, its next due's base. */
async function afterFiring(job: Job, due: number, ctx: FiringContext): Promise<void> {
  if (job.when.kind === "at") {
    await ctx.jobs.remove(job.id);
    return;
  }
  for (const older of await ctx.records.of(job.id)) {
    if (older.due < due && isFinal(older)) await ctx.records.remove(older);
  }
}

/** A firing's last state: nothing more is done for it. */
export function isFinal(record: FiringRecord): boolean {
  return record.state !== "taken" && record.state !== "answered";
}

/**
 * Takes a firing on from where its record says to delivered (or dropped); undefined when none may
 * begin now (the agent is leaving the runner), the firing kept for the next runner.
 */
async function fire(
  record: FiringRecord,
  ctx: FiringContext,
  why: "due" | "resumed",
): Promise<FiringRecord | undefined> {
  const end = ctx.begin ? ctx.begin() : () => {};
  if (!end) return undefined;
  const fields = { agent: ctx.agentId, job: record.job.id, due: iso(record.due), to: record.job.to };
  try {
    log.info(why === "due" ? "Job firing" : "Job firing resumed", { ...fields, state: record.state });
    if (record.state === "taken") record = await askUntilAnswered(record, { ctx, fields });
    record = await deliver(record, ctx, fields);
  } catch (err) {
    if (!(err instanceof Gone)) throw err;
    log.warn("A job's agent was removed: the job is dropped", { ...fields, error: err.message });
    record = await stepFiring(ctx, record, { state: "dropped", note: err.message });
  } finally {
    end();
  }
  return record;
}

/** Sends the kept answer where the job's reply says (SCH-3: the way in, never a chat the harness names). */
async function deliver(
  record: FiringRecord,
  ctx: FiringContext,
  fields: Record<string, unknown>,
): Promise<FiringRecord> {
  const { job } = record;
  const answer = record.answer ?? "";
  const reply = job.reply;
  if (reply.to === "none") return await stepFiring(ctx, record, { state: "delivered" });
  if (!answer.trim()) {
    return await stepFiring(ctx, record, { state: "delivered", note: "the answer was empty" });
  }
  if (reply.to === "way-in") {
    // Named by the firing's request, so a retry after a lost reply is not held twice.
    const call = { connection: reply.connection, thread: reply.thread, text: answer, id: record.request };
    await withRetry(() => ctx.driver.send(ctx.agentId, call), {
      clock: ctx.clock,
      signal: ctx.signal,
      what: "send a job's answer through the agent's way in",
      fields,
    });
    return await stepFiring(ctx, record, { state: "delivered" });
  }
  if (job.hops + 1 > ctx.hops) {
    const note = `not sent: its ${job.hops + 1} hops pass the cap of ${ctx.hops}`;
    log.warn("A job's answer passes the hop cap: it is not sent", {
      ...fields,
      hops: job.hops + 1,
      cap: ctx.hops,
    });
    return await stepFiring(ctx, record, { state: "delivered", note });
  }
  const id = await answerJobId(job.id, record.due);
  await withRetry(() => keepAnswerJob(record, id, ctx), {
    clock: ctx.clock,
    signal: ctx.signal,
    what: "keep a job's answer as a job of its own",
    fields,
  });
  return await stepFiring(ctx, record, { state: "delivered", answer_job: id });
}

/**
 * Keeps the answer as a job of its own for the agent it goes to (TEAM-6), before the firing is
 * delivered: a retried delivery retries only it, never the message. One kept already, or fired
 * already (its firing is kept), is not kept again.
 */
async function keepAnswerJob(record: FiringRecord, id: string, ctx: FiringContext): Promise<void> {
  const { job } = record;
  if (job.reply.to !== "agent") return;
  const schedule = await ctx.driver.scheduleOf(job.reply.agent);
  const store = new JobStore(schedule);
  if (await store.get(id) || (await new Records(schedule).of(id)).length > 0) return;
  const now = new Date(ctx.clock.now()).toISOString();
  await store.add({
    v: 1,
    id,
    kind: "answer",
    set_by: "agent",
    created: now,
    when: { kind: "at", at: now },
    to: job.reply.agent,
    thread: job.reply.thread,
    text: record.answer!,
    from: job.reply.from,
    hops: job.hops + 1,
    // The answer to it goes out as any answer in that thread nobody waits for (SCH-3).
    reply: replyToThread(job.reply.thread),
  }).catch((err) => {
    if ((err as { code?: string }).code !== "CONFLICT") throw err;
  });
}

/** The answer job's id, the same at every retry: made from the job's id and its due. */
async function answerJobId(jobId: string, due: number): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${jobId}@${due}`)),
  );
  return JobId.parse(jobIdOf(digest));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
