import assert from "node:assert/strict";
import { FiringRecords, firingRequest, type Job, newJobId } from "../../../core/scheduler/mod.ts";

function job(id = newJobId()): Job {
  return {
    v: 1,
    id,
    kind: "schedule",
    set_by: "owner",
    created: "2026-01-01T00:00:00.000Z",
    when: { kind: "at", at: "2026-01-02T08:00:00Z" },
    to: "a1",
    thread: "link:main",
    text: "water the plants",
    hops: 0,
    reply: { to: "way-in", connection: "link", thread: "link:main" },
  };
}

const DUE = Date.parse("2026-01-02T08:00:00Z");

Deno.test("FiringRecords.take() takes a (job, due) once: a second take, as by a second runner, gets nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const records = new FiringRecords(dir);
    const kept = job("j-aaaaaaaaaaaaaaaaaaaa");
    const [one, two] = await Promise.all([records.take(kept, DUE, 1), records.take(kept, DUE, 2)]);
    const taken = [one, two].filter((r) => r !== undefined);
    assert.equal(taken.length, 1);
    assert.deepEqual(taken[0], {
      v: 1,
      job: kept,
      due: DUE,
      request: "schedule:j-aaaaaaaaaaaaaaaaaaaa@2026-01-02T08:00:00.000Z",
      state: "taken",
      at: taken[0]!.at,
    });
    assert.equal(await records.take(kept, DUE, 3), undefined);
    // Nothing but the record is left beside it: no temp file of the take.
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(records.dir))).map((e) => e.name),
      ["j-aaaaaaaaaaaaaaaaaaaa@1767340800000.json"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("FiringRecords.move() keeps each state with its answer, read back whole; a broken file is named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const records = new FiringRecords(dir);
    const kept = job();
    const taken = (await records.take(kept, DUE, 1))!;
    const answered = await records.move(taken, { state: "answered", answer: "Done.", at: 2 });
    assert.deepEqual(await records.of(kept.id), [answered]);
    const delivered = await records.move(answered, { state: "delivered", at: 3 });
    assert.deepEqual(await records.of(kept.id), [{ ...taken, state: "delivered", answer: "Done.", at: 3 }]);
    await Deno.writeTextFile(`${records.dir}/j-bbbbbbbbbbbbbbbbbbbb@1.json`, "{");
    const all = await records.all();
    assert.deepEqual(all.records, [delivered]);
    assert.deepEqual(all.broken, [`${records.dir}/j-bbbbbbbbbbbbbbbbbbbb@1.json`]);
    await records.remove(delivered);
    await records.remove(delivered);
    assert.deepEqual(await records.of(kept.id), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("FiringRecords.lock() holds a job for one holder at a time, and a dropped lock file is made anew", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const records = new FiringRecords(dir);
    const first = await records.lock("j-aaaaaaaaaaaaaaaaaaaa");
    let secondHeld = false;
    const second = records.lock("j-aaaaaaaaaaaaaaaaaaaa").then((l) => {
      secondHeld = true;
      return l;
    });
    // The second waits on the kernel's lock: dropping the file lets it go, and it locks anew.
    const other = await records.lock("j-bbbbbbbbbbbbbbbbbbbb");
    other.release();
    assert.equal(secondHeld, false);
    await first.drop();
    const held = await second;
    assert.equal(secondHeld, true);
    held.release();
    assert.equal(
      firingRequest("j-aaaaaaaaaaaaaaaaaaaa", 0),
      "schedule:j-aaaaaaaaaaaaaaaaaaaa@1970-01-01T00:00:00.000Z",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
