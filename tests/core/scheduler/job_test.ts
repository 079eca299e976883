import assert from "node:assert/strict";
import { checkWhen, type Job, JobStore, newJobId, nextDue } from "../../../core/scheduler/mod.ts";
import { isLinkError } from "../../../core/base/mod.ts";

function job(id = newJobId()): Job {
  return {
    v: 1,
    id,
    kind: "schedule",
    set_by: "owner",
    created: new Date().toISOString(),
    when: { kind: "at", at: "2030-01-01T08:00:00Z" },
    to: "a1",
    thread: "link:main",
    text: "water the plants",
    hops: 0,
    reply: { to: "way-in", connection: "link", thread: "link:main" },
  };
}

Deno.test("a job kept is listed whole, a broken file is named and not dropped silently, and removing says whether it was there", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = new JobStore(dir);
    const kept = job();
    await store.add(kept);
    await assert.rejects(store.add(kept), (e) => isLinkError(e, "CONFLICT"));
    await Deno.writeTextFile(`${store.dir}/j-aaaaaaaaaaaaaaaaaaaa.json`, "{not json");
    const listing = await store.list();
    assert.deepEqual(listing.jobs, [kept]);
    assert.equal(listing.broken.length, 1);
    assert.deepEqual(await store.get(kept.id), kept);
    assert.equal(await store.remove(kept.id), true);
    assert.equal(await store.remove(kept.id), false);
    assert.equal(await store.get("../../etc/passwd"), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cron times follow the zone's daylight saving: a skipped time is due at the next valid one, a repeated one once", () => {
  const when = { kind: "cron" as const, cron: "30 2 * * *", zone: "Europe/Berlin" };
  const dues = (from: string, n: number) => {
    const out: string[] = [];
    let t = Date.parse(from);
    for (let i = 0; i < n; i++) {
      t = nextDue(when, t)!;
      out.push(new Date(t).toISOString());
    }
    return out;
  };
  // 2026-03-29: 02:00 CET jumps to 03:00 CEST, so 02:30 is due at 03:00 CEST.
  assert.deepEqual(dues("2026-03-28T12:00:00Z", 2), ["2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"]);
  // 2026-10-25: 03:00 CEST falls back to 02:00 CET, so 02:30 comes twice and is due once.
  assert.deepEqual(dues("2026-10-24T12:00:00Z", 2), ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
  assert.equal(
    nextDue({ kind: "at", at: "2026-01-01T00:00:00Z" }, Date.parse("2026-01-02T00:00:00Z")),
    undefined,
  );
});

Deno.test("when a job fires is checked with an error a model can read", () => {
  const now = Date.parse("2026-06-01T00:00:00Z");
  assert.throws(() => checkWhen({ kind: "cron", cron: "61 * * * *", zone: "UTC" }, now), /minute/);
  assert.throws(() => checkWhen({ kind: "cron", cron: "* * * * *", zone: "Mars/Base" }, now), /no such zone/);
  assert.throws(() => checkWhen({ kind: "at", at: "2026-05-01T00:00:00Z" }, now), /has passed/);
  checkWhen({ kind: "at", at: "2026-07-01T00:00:00Z" }, now);
});
