import assert from "node:assert/strict";
import { UnprovenPlaces } from "../../link_bridge/unproven_places.ts";

Deno.test("UnprovenPlaces.take() gives a user's newest the place of its own oldest (BRG-13)", () => {
  const places = new UnprovenPlaces({ perUser: 2, perBridge: 10 });
  const evicted: string[] = [];
  places.take("uid:1", () => evicted.push("u1-a"));
  places.take("uid:1", () => evicted.push("u1-b"));
  places.take("uid:2", () => evicted.push("u2-a"));
  places.take("uid:1", () => evicted.push("u1-c"));
  assert.deepEqual(
    { evicted, size: places.size, u1: places.heldBy("uid:1"), u2: places.heldBy("uid:2") },
    { evicted: ["u1-a"], size: 3, u1: 2, u2: 1 },
  );
});

Deno.test("UnprovenPlaces.take() turns a user away only when others hold every place (U-10)", () => {
  const places = new UnprovenPlaces({ perUser: 4, perBridge: 3 });
  const evicted: string[] = [];
  places.take("uid:1", () => evicted.push("u1-a"));
  places.take("uid:2", () => evicted.push("u2-a"));
  places.take("uid:3", () => evicted.push("u3-a"));
  assert.equal(places.take("uid:4", () => evicted.push("u4-a")), undefined);
  assert.notEqual(places.take("uid:2", () => evicted.push("u2-b")), undefined);
  assert.deepEqual({ evicted, size: places.size }, { evicted: ["u2-a"], size: 3 });
});

Deno.test("UnprovenPlace.release() frees the place once, and a released place is never evicted", () => {
  const places = new UnprovenPlaces({ perUser: 1, perBridge: 2 });
  const evicted: string[] = [];
  const first = places.take("uid:1", () => evicted.push("first"))!;
  first.release();
  first.release();
  places.take("uid:1", () => evicted.push("second"));
  assert.deepEqual({ evicted, size: places.size }, { evicted: [], size: 1 });
});
