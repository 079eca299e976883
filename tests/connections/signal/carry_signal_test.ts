import assert from "node:assert/strict";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import {
  carrySignal,
  inboxDir,
  ONLY_TEXT_REPLY,
  SIGNAL_LIMIT,
  type SignalState,
  STALE_MS,
} from "../../../connections/signal/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";
import { ACCOUNT, LoopbackDaemon } from "./_support.ts";

const OWNER = "+15551110000";

function inboxEmpty(stateDir: string): boolean {
  try {
    return [...Deno.readDirSync(inboxDir(stateDir))].length === 0;
  } catch {
    return true;
  }
}

/** Moves the clock on a second at a time until `done` holds: the carrier's waits run by the clock. */
async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await clock.advance(1000);
  assert.ok(done(), "the awaited state never came");
}

/** Resolves once `ok` holds, checked at each change of the files in `dir`. */
async function untilFiles(dir: string, ok: () => boolean): Promise<void> {
  using watcher = Deno.watchFs(dir);
  if (ok()) return;
  for await (const _ of watcher) if (ok()) return;
}

/** A carrier for the owner, over a loopback daemon, a real harness and a fake model. */
async function carrier(options: { access?: ChatAccess } = {}) {
  const daemon = LoopbackDaemon.start();
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-signal-" });
  const clock = new FakeClock();
  const states: SignalState[] = [];
  const stop = new AbortController();
  const carrying = carrySignal({
    account: { daemonUrl: daemon.url, number: ACCOUNT },
    stateDir,
    ownerNumber: OWNER,
    access: options.access,
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: stop.signal,
    onState: (s) => states.push(s),
  });
  await daemon.when(() => daemon.streams === 1);
  return {
    daemon,
    model,
    harness,
    stateDir,
    clock,
    states,
    /** Resolves once `recipient` got `count` messages and nothing is left kept. */
    answered: async (recipient: string, count = 1) => {
      await daemon.when(() => daemon.sent(recipient).length >= count);
      await untilFiles(stateDir, () => inboxEmpty(stateDir));
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await carrying;
      await harness[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await daemon[Symbol.asyncDispose]();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

function userTexts(t: { model: { requests: { body: unknown }[] } }): unknown[] {
  return t.model.requests.map((r) => {
    const body = r.body as { messages: { role: string; content: unknown }[] };
    return body.messages.filter((m) => m.role === "user").at(-1)?.content;
  });
}

Deno.test("carrySignal() answers the owner in session signal:<number> with typing, the whole answer split at 2,000; a stranger and a group dropped", async () => {
  await using t = await carrier();
  t.daemon.says("+15553330000", "let me in");
  t.daemon.says(OWNER, "hello group", { groupInfo: { groupId: "Z3JvdXA=", type: "DELIVER" } });
  const long = `${"word ".repeat(500).trim()}\n\n${"more ".repeat(100).trim()}`;
  const reply = t.model.reply(long);
  t.daemon.says(OWNER, "hi");
  await reply.done;
  await t.answered(OWNER, 2);
  const sent = t.daemon.sent(OWNER);
  assert.equal(sent.length, 2);
  assert.equal(sent.join(" "), long);
  assert.ok(sent.every((m) => m.length <= SIGNAL_LIMIT));
  assert.deepEqual(userTexts(t), ["hi"]);
  assert.ok((await t.harness.events(`signal:${OWNER}`)).length > 0, "no conversation signal:<owner number>");
  const toOwner = t.daemon.calls.filter((c) => (c.params.recipient as string[] | undefined)?.[0] === OWNER);
  assert.deepEqual(toOwner.map((c) => [c.method, c.params.stop ?? false]), [
    ["sendTyping", false],
    ["sendTyping", true],
    ["send", false],
    ["send", false],
  ]);
  assert.ok(t.daemon.calls.every((c) => c.params.account === ACCOUNT));
  assert.deepEqual(t.daemon.sent("+15553330000"), []);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(t.states.map((s) => s.state), ["connected"]);
});

Deno.test("carrySignal() answers a person in [access] message in their own session with Link-From", async () => {
  const person = "+15552220000";
  await using t = await carrier({ access: { chats: new Set(), persons: new Set([person]) } });
  const reply = t.model.reply("Hello, guest");
  t.daemon.says(person, "hi from a guest");
  await reply.done;
  await t.answered(person);
  assert.deepEqual(t.daemon.sent(person), ["Hello, guest"]);
  const events = JSON.stringify(await t.harness.events(`signal:${person}`));
  assert.ok(events.includes(`person:signal:${person}`), "the message was not kept as the person's");
  assert.deepEqual(t.daemon.sent(OWNER), []);
});

Deno.test("carrySignal() answers a message with only an attachment or a sticker with a short only-text reply", async () => {
  await using t = await carrier();
  t.daemon.says(OWNER, undefined, { attachments: [{ contentType: "image/jpeg", id: "a.jpg", size: 10 }] });
  t.daemon.says(OWNER, undefined, { sticker: { packId: "p", stickerId: 1 } });
  await t.answered(OWNER, 2);
  assert.deepEqual(t.daemon.sent(OWNER), [ONLY_TEXT_REPLY, ONLY_TEXT_REPLY]);
  assert.equal(t.model.requests.length, 0);
});

Deno.test("carrySignal() answers once an envelope the daemon replays", async () => {
  await using t = await carrier();
  const reply = t.model.reply("Answered once");
  t.daemon.says(OWNER, "hi");
  await reply.done;
  await t.answered(OWNER);
  t.daemon.replay();
  const next = t.model.reply("The next one");
  t.daemon.says(OWNER, "and now");
  await next.done;
  await t.answered(OWNER, 2);
  assert.deepEqual(t.daemon.sent(OWNER), ["Answered once", "The next one"]);
  assert.equal(t.model.requests.length, 2);
});

Deno.test("carrySignal() notices a stream gone silent and opens another, losing nothing", async () => {
  await using t = await carrier();
  // Keep-alives hold a quiet stream open.
  for (let i = 0; i < 5; i++) {
    await t.clock.advance(15_000);
    t.daemon.keepAlive();
  }
  assert.equal(t.daemon.streams, 1);
  t.daemon.fallSilent();
  const silentAt = t.clock.now();
  await advanceUntil(t.clock, () => t.daemon.streams === 2);
  assert.ok(t.clock.now() - silentAt >= STALE_MS - 15_000, "reconnected before the stream was stale");
  const reply = t.model.reply("Still here");
  t.daemon.says(OWNER, "are you there");
  await reply.done;
  await t.answered(OWNER);
  assert.deepEqual(t.daemon.sent(OWNER), ["Still here"]);
  assert.deepEqual(t.states.map((s) => [s.state, s.why]), [
    ["connected", undefined],
    ["reconnecting", "the event stream was silent for 45 s"],
    ["connected", undefined],
  ]);
});

Deno.test("carrySignal() reconnects to a restarted daemon with backoff and answers once what came meanwhile", async () => {
  await using t = await carrier();
  const first = t.model.reply("Before");
  t.daemon.says(OWNER, "one");
  await first.done;
  await t.answered(OWNER);
  await t.daemon.stop();
  const meanwhile = t.model.reply("After the restart");
  t.daemon.says(OWNER, "two");
  // The carrier finds nothing answering and waits, longer each time.
  await advanceUntil(t.clock, () => t.states.length >= 3);
  t.daemon.start();
  await advanceUntil(t.clock, () => t.daemon.streams === 2);
  await meanwhile.done;
  await t.answered(OWNER, 2);
  t.daemon.replay();
  assert.deepEqual(t.daemon.sent(OWNER), ["Before", "After the restart"]);
  assert.equal(t.model.requests.length, 2);
  assert.deepEqual(t.states.map((s) => s.state), ["connected", "reconnecting", "reconnecting", "connected"]);
  assert.match(t.states[1]!.why ?? "", /closed the event stream/);
  assert.match(t.states[2]!.why ?? "", /^the daemon does not answer/);
});
