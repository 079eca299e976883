import assert from "node:assert/strict";
import { AgentSchedule, type FiringRecord } from "../../../core/scheduler/mod.ts";
import { ownerJob, scheduleRig } from "./_support.ts";

Deno.test("AgentSchedule takes a job added while it runs at once (its folder watched), sleeps on the clock until it is due, and fires it once", async () => {
  await using rig = await scheduleRig("2026-06-01T08:00:00Z");
  const steps: FiringRecord[] = [];
  let delivered = Promise.withResolvers<void>();
  await using schedule = await AgentSchedule.start({
    ...rig.ctx,
    schedule: rig.dir,
    onStep: (r) => {
      steps.push(r);
      if (r.state === "delivered") delivered.resolve();
    },
  });
  assert.deepEqual(schedule.jobs, []);
  const job = ownerJob({ kind: "cron", cron: "0 9 * * *", zone: "UTC" }, "2026-06-01T08:00:00.000Z");
  await rig.jobs.add(job);
  await rig.clock.waitForSleepers(1); // seen, and sleeping until 09:00
  assert.deepEqual(schedule.jobs, [job.id]);
  assert.equal(rig.driver.calls.length, 0);
  await rig.clock.advance(60 * 60_000);
  await delivered.promise;
  assert.deepEqual(steps.map((s) => s.state), ["taken", "answered", "delivered"]);
  assert.deepEqual(rig.driver.asked, ["2026-06-01T09:00:00.000Z"]);
  // Asleep again until tomorrow's; the owner removes it meanwhile: nothing more fires.
  await rig.clock.waitForSleepers(1);
  delivered = Promise.withResolvers<void>();
  await rig.jobs.remove(job.id);
  while (schedule.jobs.length > 0) await new Promise((r) => setTimeout(r, 0));
  await rig.clock.advance(24 * 60 * 60_000);
  assert.deepEqual(rig.driver.asked, ["2026-06-01T09:00:00.000Z"]);
});
