import assert from "node:assert/strict";
import type { ConversationEvent, Lease, OpenStore } from "../../core/harness/store/mod.ts";

/** Where a driver keeps its conversations for one test; open() may be called more than once (two writers). */
export interface StoreBacking extends AsyncDisposable {
  open(): OpenStore;
}

const LAPSE = 60_000;
const T0 = Date.UTC(2025, 0, 1);

/** A message event numbered for a test. */
export function message(text: string): ConversationEvent {
  return { type: "message", text, request: `req-${text}`, at: T0 };
}

/** A lease held by a made-up process on a turn. */
export function leaseOf(pid: number, turn: string, at = T0): Lease {
  return { holder: { boot: "boot-1", pid, start: `start-${pid}` }, turn, renewed_at_ms: at };
}

/**
 * A short turn's dozen store calls (TRN-16), in the order a turn makes them, each started when
 * called: a test makes them one after another, or all at once to see the order they ran in.
 */
export function shortTurnCalls(store: OpenStore): (() => Promise<unknown>)[] {
  const judgement = { lapseMs: 60_000, nowMs: 1_000 };
  return [
    () => store.leaseTake("link:main", leaseOf(1, "t1"), judgement),
    () => store.toolsRead("link:main"),
    () => store.append("link:main", 1, message("hi")),
    () => store.read("link:main"),
    () => store.append("link:main", 2, message("answer")),
    () => store.read("link:main", 2),
    () => store.leaseRenew("link:main", leaseOf(1, "t1"), 2_000),
    () => store.toolsWrite("link:main", ["web"]),
    () => store.toolsRead("link:main"),
    () => store.leaseRead("link:main"),
    () => store.leaseRelease("link:main", leaseOf(1, "t1")),
    () => store.list(),
  ];
}

/** What shortTurnCalls answer on an empty store, in order. */
export const SHORT_TURN_ANSWERS = [
  leaseOf(1, "t1", 1_000),
  undefined,
  "ok",
  [{ n: 1, event: message("hi") }],
  "ok",
  [{ n: 2, event: message("answer") }],
  true,
  undefined,
  ["web"],
  leaseOf(1, "t1", 2_000),
  undefined,
  ["link:main"],
];

/**
 * The one contract test every driver passes (TRN-1..3, TRN-7, TRN-8, TRN-13): the files driver,
 * SQLite, and programs with and without `serve`.
 */
export function storeContractTests(
  driver: string,
  makeBacking: () => Promise<StoreBacking>,
  options: { raceRounds?: number } = {},
): void {
  const test = (name: string, fn: (backing: StoreBacking) => Promise<void>) =>
    Deno.test(`${driver}: ${name}`, async () => {
      await using backing = await makeBacking();
      await fn(backing);
    });

  test("append() writes events once and read() returns them in order (TRN-8)", async (backing) => {
    await using store = backing.open();
    const events = ["a", "b", "c"].map(message);
    for (const [i, event] of events.entries()) {
      assert.equal(await store.append("link:main", i + 1, event), "ok");
    }
    assert.deepEqual(await store.read("link:main"), events.map((event, i) => ({ n: i + 1, event })));
    assert.deepEqual(await store.read("link:main", 2), [{ n: 2, event: events[1] }, {
      n: 3,
      event: events[2],
    }]);
    assert.deepEqual(await store.read("link:other"), []);
  });

  test("append() on a taken number is a conflict; the loser reads again and appends n+1 (TRN-8)", async (backing) => {
    await using turn = backing.open();
    await using arriving = backing.open();
    assert.equal(await turn.append("link:main", 1, message("turn")), "ok");
    assert.equal(await arriving.append("link:main", 1, message("arriving")), "conflict");
    const last = (await arriving.read("link:main")).at(-1)!.n;
    assert.equal(await arriving.append("link:main", last + 1, message("arriving")), "ok");
    assert.deepEqual(await turn.read("link:main"), [
      { n: 1, event: message("turn") },
      { n: 2, event: message("arriving") },
    ]);
  });

  test("two writers racing for the same number: exactly one is ok (TRN-8)", async (backing) => {
    await using a = backing.open();
    await using b = backing.open();
    for (let round = 1; round <= (options.raceRounds ?? 10); round++) {
      const results = await Promise.all([
        a.append("race", round, message(`a${round}`)),
        b.append("race", round, message(`b${round}`)),
      ]);
      assert.deepEqual([...results].sort(), ["conflict", "ok"], `round ${round}`);
      const winner = results[0] === "ok" ? `a${round}` : `b${round}`;
      assert.deepEqual(await a.read("race", round), [{ n: round, event: message(winner) }]);
    }
  });

  test("append() and read() refuse a number that is not a whole number from 1, and an empty id", async (backing) => {
    await using store = backing.open();
    await assert.rejects(store.append("link:main", 0, message("x")), { name: "LinkError", code: "USAGE" });
    await assert.rejects(store.append("link:main", 1.5, message("x")), { name: "LinkError", code: "USAGE" });
    await assert.rejects(store.read("link:main", -1), { name: "LinkError", code: "USAGE" });
    await assert.rejects(store.append("", 1, message("x")), { name: "LinkError", code: "USAGE" });
    await assert.rejects(store.toolsRead(""), { name: "LinkError", code: "USAGE" });
  });

  test("leaseTake() takes a free lease and leaseRead() returns it (TRN-1)", async (backing) => {
    await using store = backing.open();
    assert.equal(await store.leaseRead("link:main"), undefined);
    const taken = await store.leaseTake("link:main", leaseOf(1, "t1", 0), { lapseMs: LAPSE, nowMs: T0 });
    assert.deepEqual(taken, leaseOf(1, "t1", T0));
    assert.deepEqual(await store.leaseRead("link:main"), leaseOf(1, "t1", T0));
  });

  test("leaseTake() is refused while the lease is fresh, taken at exactly the lapse and not 1 ms before (TRN-2)", async (backing) => {
    await using a = backing.open();
    await using b = backing.open();
    assert.deepEqual(
      await a.leaseTake("c", leaseOf(1, "t1"), { lapseMs: LAPSE, nowMs: T0 }),
      leaseOf(1, "t1", T0),
    );
    assert.equal(await b.leaseTake("c", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + 1 }), undefined);
    assert.equal(await b.leaseTake("c", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + 59_999 }), undefined);
    assert.deepEqual(await b.leaseRead("c"), leaseOf(1, "t1", T0));
    const taken = await b.leaseTake("c", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + 60_000 });
    assert.deepEqual(taken, leaseOf(2, "t2", T0 + 60_000));
    assert.deepEqual(await a.leaseRead("c"), leaseOf(2, "t2", T0 + 60_000));
  });

  test("leaseTake() judges with the caller's lapse, never a lapse field in the lease (TRN-3)", async (backing) => {
    await using a = backing.open();
    await using b = backing.open();
    const longClaim = { ...leaseOf(1, "t1"), lapse: 10 ** 12, lapse_ms: 10 ** 12 };
    assert.notEqual(await a.leaseTake("long", longClaim, { lapseMs: LAPSE, nowMs: T0 }), undefined);
    assert.equal((await b.leaseRead("long"))?.lapse, 10 ** 12, "the forged field is kept as written");
    assert.deepEqual(
      await b.leaseTake("long", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + LAPSE }),
      leaseOf(2, "t2", T0 + LAPSE),
    );
    const shortClaim = { ...leaseOf(1, "t1"), lapse: 1, lapse_ms: 1 };
    assert.notEqual(await a.leaseTake("short", shortClaim, { lapseMs: LAPSE, nowMs: T0 }), undefined);
    assert.equal(
      await b.leaseTake("short", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + 1_000 }),
      undefined,
    );
  });

  test("leaseRenew() and leaseRelease() act only for the holder (TRN-1)", async (backing) => {
    await using a = backing.open();
    await using b = backing.open();
    const held = (await a.leaseTake("c", leaseOf(1, "t1"), { lapseMs: LAPSE, nowMs: T0 }))!;
    assert.equal(await b.leaseRenew("c", leaseOf(2, "t2"), T0 + 5), false);
    assert.equal(await b.leaseRenew("c", { ...held, turn: "other" }, T0 + 5), false);
    await b.leaseRelease("c", leaseOf(2, "t2"));
    assert.deepEqual(await b.leaseRead("c"), held);
    assert.equal(await a.leaseRenew("c", held, T0 + 10_000), true);
    assert.deepEqual(await b.leaseRead("c"), { ...held, renewed_at_ms: T0 + 10_000 });
    // The holder stalls past the lapse; another takes the turn; the old holder can neither renew nor release it.
    const taker = (await b.leaseTake("c", leaseOf(2, "t2"), { lapseMs: LAPSE, nowMs: T0 + 70_000 }))!;
    assert.equal(await a.leaseRenew("c", held, T0 + 70_001), false);
    await a.leaseRelease("c", held);
    assert.deepEqual(await a.leaseRead("c"), taker);
    await b.leaseRelease("c", taker);
    assert.equal(await a.leaseRead("c"), undefined);
    assert.equal(await a.leaseRenew("c", taker, T0 + 70_002), false);
    await a.leaseRelease("nobody", taker);
    assert.deepEqual(
      await a.leaseTake("c", leaseOf(3, "t3"), { lapseMs: LAPSE, nowMs: T0 + 70_003 }),
      leaseOf(3, "t3", T0 + 70_003),
    );
  });

  test("toolsWrite() keeps the tool list beside the events, not among them (TRN-13)", async (backing) => {
    await using store = backing.open();
    assert.equal(await store.toolsRead("link:main"), undefined);
    await store.append("link:main", 1, message("hi"));
    await store.toolsWrite("link:main", ["files", "web"]);
    assert.deepEqual(await store.toolsRead("link:main"), ["files", "web"]);
    await store.toolsWrite("link:main", ["web"]);
    assert.deepEqual(await store.toolsRead("link:main"), ["web"]);
    assert.deepEqual(await store.read("link:main"), [{ n: 1, event: message("hi") }]);
    await store.toolsWrite("link:none", []);
    assert.deepEqual(await store.toolsRead("link:none"), []);
  });

  test("list() returns every conversation with events, a tool list or a lease", async (backing) => {
    await using store = backing.open();
    assert.deepEqual(await store.list(), []);
    const ids = [
      "link:main",
      "telegram:-1001234",
      "slack:T01AB/C02CD",
      "Main:Grüße 漢字",
      ".hidden",
      "a+b%c^d",
    ];
    for (const id of ids) await store.append(id, 1, message(id));
    await store.toolsWrite("tools:only", ["web"]);
    await store.leaseTake("lease:only", leaseOf(1, "t"), { lapseMs: LAPSE, nowMs: T0 });
    assert.deepEqual(await store.list(), [...ids, "tools:only", "lease:only"].sort());
    for (const id of ids) assert.deepEqual(await store.read(id), [{ n: 1, event: message(id) }]);
  });
}
