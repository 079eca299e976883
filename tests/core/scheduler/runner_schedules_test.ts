import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { FiringRecords, JobStore, RunnerRoster, RunnerSchedules } from "../../../core/scheduler/mod.ts";
import { FakeClock, runJson, tempHome } from "../../support/mod.ts";
import { InProcessDriver, ownerJob } from "./_support.ts";

Deno.test("RunnerSchedules: an agent taken off while its job fires lets that firing finish, once, and fires nothing new (PRC-7)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  const schedule = layoutOf(home.paths, await loadSettings(home.paths, id)).collection("schedule");
  const clock = new FakeClock(Date.parse("2026-06-01T08:00:00Z"));
  const driver = new InProcessDriver(clock);
  const answer = Promise.withResolvers<void>();
  driver.hold = { taken: Promise.withResolvers<void>(), answer: answer.promise };
  const roster = new RunnerRoster();
  const delivered = Promise.withResolvers<void>();
  await using schedules = new RunnerSchedules({
    paths: home.paths,
    roster,
    clock,
    driver,
    onStep: (_agent, r) => r.state === "delivered" && delivered.resolve(),
  });
  const agents = [{ id, way_in: "/nowhere/send.sock" }];
  roster.update(agents);
  schedules.follow(roster.agents);
  const now = "2026-06-01T08:00:00.000Z";
  const job = ownerJob({ kind: "cron", cron: "0 8 * * *", zone: "UTC" }, "2026-06-01T07:00:00.000Z", {
    to: id,
  });
  await new JobStore(schedule).add(job);
  await driver.hold.taken.promise;
  // Taken off mid-firing: it stays on the roster as leaving until the firing ends.
  assert.deepEqual(roster.update([]), { added: [], removed: [], leaving: [id] });
  schedules.follow(roster.agents);
  answer.resolve();
  await delivered.promise;
  await roster.settled();
  assert.deepEqual([roster.leaving, roster.agents], [[], []]);
  assert.deepEqual(driver.asked, [now]);
  assert.deepEqual(driver.calls.filter((c) => c.kind === "send").length, 1);
  // A day on, nothing fires for it: its schedule has ended.
  await clock.advance(24 * 60 * 60_000);
  assert.deepEqual(driver.asked, [now]);
  assert.deepEqual((await new FiringRecords(schedule).of(job.id)).map((r) => r.state), ["delivered"]);
});
