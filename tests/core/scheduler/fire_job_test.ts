import assert from "node:assert/strict";
import { LinkError } from "../../../core/base/mod.ts";
import { runJob } from "../../../core/scheduler/mod.ts";
import { ownerJob, scheduleRig } from "./_support.ts";

/** Runs the job as a runner would, moving the fake clock to each due, until `until`. */
async function runUntil(
  rig: Awaited<ReturnType<typeof scheduleRig>>,
  id: string,
  until: string,
): Promise<void> {
  for (;;) {
    const next = await runJob(id, rig.ctx);
    if (next === undefined || next > Date.parse(until)) return;
    await rig.clock.advance(next - rig.clock.now());
  }
}

Deno.test("runJob() fires a daily 02:30 job in Europe/Berlin at 03:00 on the spring-forward day and once on the fall-back day", async () => {
  await using rig = await scheduleRig("2026-03-27T12:00:00Z");
  const when = { kind: "cron" as const, cron: "30 2 * * *", zone: "Europe/Berlin" };
  const job = ownerJob(when, "2026-03-27T12:00:00.000Z", { reply: { to: "none" } });
  await rig.jobs.add(job);
  await runUntil(rig, job.id, "2026-03-30T12:00:00Z");
  assert.deepEqual(rig.driver.asked, [
    "2026-03-28T01:30:00.000Z", // 02:30 CET
    "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST
    "2026-03-30T00:30:00.000Z", // 02:30 CEST
  ]);
  // Only the last firing is kept: the base of the next due.
  assert.deepEqual((await rig.records.of(job.id)).map((r) => [r.due, r.state]), [
    [Date.parse("2026-03-30T00:30:00Z"), "delivered"],
  ]);
  await rig.clock.advance(Date.parse("2026-10-23T12:00:00Z") - rig.clock.now());
  rig.driver.calls.length = 0;
  await rig.records.remove((await rig.records.of(job.id))[0]!);
  await rig.records.note(job, rig.clock.now(), { state: "skipped", now: rig.clock.now(), note: "test" });
  await runUntil(rig, job.id, "2026-10-26T12:00:00Z");
  assert.deepEqual(rig.driver.asked, [
    "2026-10-24T00:30:00.000Z", // 02:30 CEST
    "2026-10-25T00:30:00.000Z", // 02:30 comes twice: once
    "2026-10-26T01:30:00.000Z", // 02:30 CET
  ]);
});

Deno.test("runJob() fires a job missed while the runner was down once, within the catch-up window, and skips one missed by more", async () => {
  await using rig = await scheduleRig("2026-05-04T06:00:00Z");
  const daily = ownerJob(
    { kind: "cron", cron: "0 8 * * *", zone: "Europe/Berlin" },
    "2026-05-01T00:00:00.000Z",
  );
  await rig.jobs.add(daily);
  // Down since the 1st: of the 2nd, 3rd and 4th (06:00Z = 08:00 CEST), only the 4th fires, once.
  assert.equal(await runJob(daily.id, rig.ctx), Date.parse("2026-05-05T06:00:00Z"));
  assert.deepEqual(rig.driver.asked, ["2026-05-04T06:00:00.000Z"]);
  assert.equal(await runJob(daily.id, rig.ctx), Date.parse("2026-05-05T06:00:00Z"));
  assert.equal(rig.driver.asked.length, 1);
  // Down again until 7 h after the 5th's due: past the 6 h window, skipped, the 6th is next.
  await rig.clock.advance(Date.parse("2026-05-05T13:00:00Z") - rig.clock.now());
  assert.equal(await runJob(daily.id, rig.ctx), Date.parse("2026-05-06T06:00:00Z"));
  assert.equal(rig.driver.asked.length, 1);
  assert.deepEqual((await rig.records.of(daily.id)).map((r) => [r.state, r.note]), [
    ["skipped", "missed from 2026-05-05T06:00:00.000Z"],
  ]);
  // A one-shot job missed by more is skipped and gone; one missed by less fires.
  const late = ownerJob({ kind: "at", at: "2026-05-05T05:00:00Z" }, "2026-05-01T00:00:00.000Z");
  const lately = ownerJob({ kind: "at", at: "2026-05-05T08:00:00Z" }, "2026-05-01T00:00:00.000Z");
  await rig.jobs.add(late);
  await rig.jobs.add(lately);
  assert.equal(await runJob(late.id, rig.ctx), undefined);
  assert.equal(await runJob(lately.id, rig.ctx), undefined);
  assert.deepEqual(rig.driver.asked, ["2026-05-04T06:00:00.000Z", "2026-05-05T08:00:00.000Z"]);
  assert.deepEqual((await rig.jobs.list()).jobs.map((j) => j.id), [daily.id]);
});

Deno.test("runJob() sends the answer on the way in, retrying a refused door and way in with backoff, asking once a failure later in the firing", async () => {
  await using rig = await scheduleRig("2026-05-04T06:00:00Z");
  const job = ownerJob({ kind: "at", at: "2026-05-04T06:00:00Z" }, "2026-05-01T00:00:00.000Z");
  await rig.jobs.add(job);
  const refused = new LinkError("AGENT_NOT_RUNNING", "Cannot reach agent");
  // The door refuses once, then answers; the way in refuses once, then takes it.
  rig.driver.fail = [refused, undefined, refused];
  const running = runJob(job.id, rig.ctx);
  await rig.clock.waitForSleepers(1);
  await rig.clock.advance(1_000);
  // Asked again at +1 s and answered; then the way in refused once: sent again 1 s later.
  await rig.clock.waitForSleepers(1);
  await rig.clock.advance(2_000);
  assert.equal(await running, undefined);
  const sendId = `schedule:${job.id}@2026-05-04T06:00:00.000Z`;
  assert.deepEqual(rig.driver.calls.map((c) => c.kind === "ask" ? ["ask", c.at] : ["send", c.call]), [
    ["ask", "2026-05-04T06:00:00.000Z"],
    ["ask", "2026-05-04T06:00:01.000Z"],
    // The same send twice, named by the firing's request: the way in holds it once.
    ["send", { connection: "link", thread: "link:main", text: "Re: water the plants", id: sendId }],
    ["send", { connection: "link", thread: "link:main", text: "Re: water the plants", id: sendId }],
  ]);
  assert.deepEqual(await rig.jobs.get(job.id), undefined);
  assert.deepEqual((await rig.records.of(job.id)).map((r) => [r.state, r.answer]), [
    ["delivered", "Re: water the plants"],
  ]);
});

Deno.test("runJob() asks again as a new message after a turn that failed, and past the catch-up window delivers that the agent could not answer, never the failure as its answer", async () => {
  await using rig = await scheduleRig("2026-05-04T06:00:00Z");
  const job = ownerJob({ kind: "at", at: "2026-05-04T06:00:00Z" }, "2026-05-01T00:00:00.000Z");
  await rig.jobs.add(job);
  const failed = new LinkError(
    "TURN_FAILED",
    "The agent could not answer: the provider could not be reached",
  );
  rig.driver.fail = [failed];
  const running = runJob(job.id, rig.ctx);
  await rig.clock.waitForSleepers(1);
  const retried = await rig.records.of(job.id);
  assert.deepEqual(retried.map((r) => [r.state, r.request, r.attempt]), [
    ["taken", `schedule:${job.id}@2026-05-04T06:00:00.000Z#2`, 2],
  ]);
  await rig.clock.advance(1_000);
  assert.equal(await running, undefined);
  assert.deepEqual(
    rig.driver.calls.filter((c) => c.kind === "ask").map((c) => c.kind === "ask" && c.request),
    [
      `schedule:${job.id}@2026-05-04T06:00:00.000Z`,
      `schedule:${job.id}@2026-05-04T06:00:00.000Z#2`,
    ],
  );
  assert.deepEqual((await rig.records.of(job.id)).map((r) => [r.state, r.answer]), [
    ["delivered", "Re: water the plants"],
  ]);

  // A turn that fails every time: asked again with backoff until the catch-up window (6 h) has
  // passed since its due, then the owner is told, once.
  const late = ownerJob({ kind: "at", at: "2026-05-04T07:00:00Z" }, "2026-05-01T00:00:00.000Z", {
    text: "call Bo",
  });
  await rig.jobs.add(late);
  await rig.clock.advance(Date.parse("2026-05-04T07:00:00Z") - rig.clock.now());
  // Every ask of it fails, however many the runner makes between two sleeps.
  rig.driver.failWhen = (call) => call.kind === "ask" && call.text === "call Bo" ? failed : undefined;
  let ended = false;
  const failing = runJob(late.id, rig.ctx).finally(() => ended = true);
  while (!ended) {
    await Promise.race([failing, rig.clock.waitForSleepers(1)]);
    if (!ended) await rig.clock.advance(5 * 60_000);
  }
  assert.equal(await failing, undefined);
  const [record] = await rig.records.of(late.id);
  assert.deepEqual([record?.state, record?.note], ["delivered", "the agent could not answer"]);
  const told = rig.driver.calls.filter((c) => c.kind === "send").at(-1);
  assert.deepEqual(
    told?.kind === "send" && told.call.text,
    `(Link) The message "call Bo" was not answered: ${failed.message}`,
  );
  const asks = rig.driver.calls.filter((c) => c.kind === "ask" && c.text === "call Bo").length;
  assert.ok(asks > 5 && asks < 100, `asked ${asks} times`);
});

Deno.test("runJob() keeps an answer for another agent as a job of its own before the firing is delivered, and none past the hop cap (TEAM-6, SCH-10)", async () => {
  await using rig = await scheduleRig("2026-05-04T06:00:00Z");
  await using other = await scheduleRig("2026-05-04T06:00:00Z");
  rig.driver.schedules.set("agentb1", other.dir);
  const reply = { to: "agent" as const, agent: "agentb1", thread: "link:team", from: "agent:agenta1" };
  const job = ownerJob({ kind: "at", at: "2026-05-04T06:00:00Z" }, "2026-05-01T00:00:00.000Z", {
    kind: "send",
    set_by: "agent",
    from: "agent:agentb1",
    hops: 3,
    reply,
  });
  await rig.jobs.add(job);
  assert.equal(await runJob(job.id, rig.ctx), undefined);
  const [answer] = (await other.jobs.list()).jobs;
  const [fired] = await rig.records.of(job.id);
  assert.deepEqual(fired?.state, "delivered");
  assert.deepEqual(answer, {
    v: 1,
    id: fired?.answer_job,
    kind: "answer",
    set_by: "agent",
    created: "2026-05-04T06:00:00.000Z",
    when: { kind: "at", at: "2026-05-04T06:00:00.000Z" },
    to: "agentb1",
    thread: "link:team",
    text: "Re: water the plants",
    from: "agent:agenta1",
    hops: 4,
    reply: { to: "way-in", connection: "link", thread: "link:team" },
  });
  assert.deepEqual(rig.driver.calls.filter((c) => c.kind === "ask").map((c) => [c.from, c.hops]), [
    ["agent:agentb1", 3],
  ]);
  const far = ownerJob({ kind: "at", at: "2026-05-04T06:00:00Z" }, "2026-05-01T00:00:00.000Z", {
    kind: "send",
    hops: 8,
    reply,
  });
  await rig.jobs.add(far);
  assert.equal(await runJob(far.id, rig.ctx), undefined);
  assert.deepEqual((await rig.records.of(far.id)).map((r) => [r.state, r.note, r.answer_job]), [
    ["delivered", "not sent: its 9 hops pass the cap of 8", undefined],
  ]);
  assert.equal((await other.jobs.list()).jobs.length, 1);
});

Deno.test("runJob() drops a job whose agent was removed, with nothing else disturbed", async () => {
  await using rig = await scheduleRig("2026-05-04T06:00:00Z");
  const gone = ownerJob({ kind: "cron", cron: "0 * * * *", zone: "UTC" }, "2026-05-04T05:30:00.000Z", {
    to: "agentz9",
  });
  const kept = ownerJob({ kind: "at", at: "2026-05-05T06:00:00Z" }, "2026-05-01T00:00:00.000Z");
  await rig.jobs.add(gone);
  await rig.jobs.add(kept);
  rig.driver.fail = [new LinkError("AGENT_NOT_FOUND", 'Cannot find the settings of agent "agentz9"')];
  assert.equal(await runJob(gone.id, rig.ctx), undefined);
  assert.deepEqual((await rig.jobs.list()).jobs.map((j) => j.id), [kept.id]);
  assert.deepEqual((await rig.records.of(gone.id)).map((r) => [r.state, r.note]), [
    ["dropped", 'Cannot find the settings of agent "agentz9"'],
  ]);
});
