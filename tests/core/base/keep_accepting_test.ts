import assert from "node:assert/strict";
import { keepAccepting } from "../../../core/base/mod.ts";
import { FakeClock, settle } from "../../support/fake_clock.ts";

/** A listener whose accepts the test settles one by one: a failure the system gives, or a connection. */
class ScriptedListener {
  accepts = 0;
  #next: PromiseWithResolvers<string> | undefined;

  accept(): Promise<string> {
    this.accepts++;
    this.#next = Promise.withResolvers<string>();
    return this.#next.promise;
  }

  /** Settles the pending accept once the loop has asked for it. */
  async give(outcome: string | Error): Promise<void> {
    while (!this.#next) await settle();
    const next = this.#next;
    this.#next = undefined;
    if (outcome instanceof Error) next.reject(outcome);
    else next.resolve(outcome);
    await settle();
  }
}

function emfile(): Error {
  return Object.assign(new Error("Too many open files (os error 24)"), { code: "EMFILE" });
}

Deno.test("keepAccepting() waits out failed accepts (EMFILE) on its clock, longer each time, and accepts again", async () => {
  const clock = new FakeClock();
  const listener = new ScriptedListener();
  const taken: string[] = [];
  const stop = new AbortController();
  const loop = keepAccepting(listener, {
    name: "test",
    clock,
    signal: stop.signal,
    onConn: (c) => void taken.push(c),
  });
  // Two failures in a row: it waits 10 ms, then 20 ms, asking nothing meanwhile.
  await listener.give(emfile());
  await clock.advance(9);
  assert.equal(listener.accepts, 1);
  await clock.advance(1);
  await listener.give(emfile());
  await clock.advance(19);
  assert.equal(listener.accepts, 2);
  await clock.advance(1);
  await listener.give("first");
  await listener.give("second");
  assert.deepEqual(taken, ["first", "second"]);
  stop.abort();
  await listener.give(new Deno.errors.BadResource("Listener has been closed"));
  await loop;
});

Deno.test("keepAccepting() rejects when its listener is gone while not stopping, so its owner ends with why", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const loop = keepAccepting(listener, { name: "door", signal: new AbortController().signal, onConn() {} });
  listener.close();
  await assert.rejects(loop, {
    name: "LinkError",
    code: "SERVICE_FAILED",
    message: "Cannot accept connections on the door: its listener closed",
  });
});

Deno.test("keepAccepting() holds at most maxAdmitting admissions, leaving the rest to the kernel's queue", async () => {
  const listener = new ScriptedListener();
  const admissions: PromiseWithResolvers<void>[] = [];
  const stop = new AbortController();
  const loop = keepAccepting(listener, {
    name: "test",
    signal: stop.signal,
    maxAdmitting: 2,
    onConn() {
      const admission = Promise.withResolvers<void>();
      admissions.push(admission);
      return admission.promise;
    },
  });
  await listener.give("a");
  await listener.give("b");
  assert.equal(listener.accepts, 2);
  admissions[0]!.resolve();
  await settle();
  assert.equal(listener.accepts, 3);
  stop.abort();
  admissions[1]!.resolve();
  await listener.give(new Deno.errors.BadResource("Listener has been closed"));
  await loop;
});
