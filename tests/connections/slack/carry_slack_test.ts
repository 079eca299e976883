import assert from "node:assert/strict";
import { ANSWERING_REACTION, inboxDir } from "../../../connections/slack/mod.ts";
import { ACK_TIMEOUT_MS, type FakeSlack } from "../../fakes/fake_slack.ts";
import type { FakeClock } from "../../support/mod.ts";
import { advanceUntil, carrier, inboxEmpty, pastEveryRetry, userTexts } from "./_support.ts";

Deno.test("carrySlack() sends the owner's DM to session slack:<channel>, posts then updates the answer, with 👀 while answering", async () => {
  await using t = await carrier();
  const { fake } = t;
  const eve = fake.user("eve");
  const room = fake.channel("general", [t.owner, eve]);
  fake.userSays(fake.dm(eve), eve, "let me in");
  fake.userSays(room, t.owner, "hello room");
  fake.otherBotSays(t.dm, "I am another bot");
  const reply = t.model.reply("Hello there, Ada. How are you?", {
    chunks: ["Hello there, ", "Ada. ", "How are you?"],
  });
  const hi = fake.userSays(t.dm, t.owner, "hi");
  await reply.done;
  await advanceUntil(
    t.clock,
    () => t.answers().at(-1) === "Hello there, Ada. How are you?" && inboxEmpty(t.stateDir),
  );
  assert.deepEqual(t.answers(), ["Hello there, Ada. How are you?"]);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(userTexts(t, 0), ["hi"]);
  assert.ok((await t.harness.events(`slack:${t.dm.id}`)).length > 0, "no conversation slack:<channel>");
  const posted = fake.calls.filter((c) => c.method === "chat.postMessage" || c.method === "chat.update");
  assert.deepEqual([...new Set(posted.map((c) => c.method))], ["chat.postMessage", "chat.update"]);
  assert.equal(posted.at(-1)?.params.text, "Hello there, Ada. How are you?");
  const reacted = fake.calls.filter((c) => c.method.startsWith("reactions."));
  assert.deepEqual(reacted.map((c) => [c.method, c.params.name, c.params.timestamp]), [
    ["reactions.add", ANSWERING_REACTION, hi.ts],
    ["reactions.remove", ANSWERING_REACTION, hi.ts],
  ]);
  const addAt = fake.calls.findIndex((c) => c.method === "reactions.add");
  const removeAt = fake.calls.findIndex((c) => c.method === "reactions.remove");
  assert.ok(addAt < fake.calls.indexOf(posted[0]!) && removeAt > fake.calls.indexOf(posted.at(-1)!));
  assert.deepEqual(fake.reactions(t.dm, hi.ts), []);
  // The stranger, the channel, the other bot and the app's own echoes: acked, never answered.
  assert.deepEqual(fake.messages(fake.dm(eve)).map((m) => m.text), ["let me in"]);
  assert.deepEqual(fake.messages(room).map((m) => m.text), ["hello room"]);
  await pastEveryRetry(t.slackClock);
  assert.deepEqual(fake.givenUp, []);
  assert.deepEqual(t.answers(), ["Hello there, Ada. How are you?"]);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(t.states.map((s) => s.state), ["connected"]);
});

/** Moves both clocks on a second at a time until `done` holds: the carrier's and the fake's acks. */
async function advanceBoth(
  t: { clock: FakeClock; slackClock: FakeClock },
  done: () => boolean,
): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) {
    await t.slackClock.advance(1000);
    await t.clock.advance(1000);
  }
  assert.ok(done(), "the awaited state never came");
}

Deno.test("carrySlack() answers once an envelope Slack sends again because its ack came too late", async () => {
  await using t = await carrier({ echoBotMessages: false });
  const reply = t.model.reply("Answered once");
  t.fake.userSays(t.dm, t.owner, "hi");
  // The ack timeout passes before the carrier's ack can arrive: the envelope comes again, retry 1.
  await t.slackClock.advance(ACK_TIMEOUT_MS);
  await reply.done;
  await advanceUntil(t.clock, () => t.answers().at(-1) === "Answered once" && inboxEmpty(t.stateDir));
  await pastEveryRetry(t.slackClock);
  const acked = t.fake.acks.map((a) => a.envelope_id);
  assert.equal(acked.length, 2, "the carrier did not ack the envelope and its redelivery");
  assert.equal(new Set(acked).size, 1);
  assert.deepEqual(t.fake.givenUp, []);
  assert.deepEqual(t.answers(), ["Answered once"]);
  assert.equal(t.model.requests.length, 1);
});

for (
  const [name, cut] of [
    ["a disconnect frame (refresh_requested)", (fake: FakeSlack) => fake.sendDisconnect("refresh_requested")],
    ["a dropped socket", (fake: FakeSlack) => fake.dropSockets()],
  ] as const
) {
  Deno.test(`carrySlack() after ${name} reconnects on one socket at a time and answers a DM sent meanwhile once`, async () => {
    await using t = await carrier({ echoBotMessages: false });
    const reply = t.model.reply("Answered after the reconnect");
    assert.equal(cut(t.fake), 1);
    t.fake.userSays(t.dm, t.owner, "are you there?");
    await t.fake.socketsWhen((s) => s.ever === 2 && s.open === 1);
    await advanceBoth(
      t,
      () => t.answers().at(-1) === "Answered after the reconnect" && inboxEmpty(t.stateDir),
    );
    await reply.done;
    await pastEveryRetry(t.slackClock);
    assert.deepEqual(t.fake.givenUp, []);
    assert.deepEqual(t.answers(), ["Answered after the reconnect"]);
    assert.equal(t.model.requests.length, 1);
    assert.deepEqual(userTexts(t, 0), ["are you there?"]);
    assert.deepEqual(t.fake.sockets, { open: 1, ever: 2, mostAtOnce: 1 });
    assert.deepEqual(t.states.map((s) => s.state), ["connected", "reconnecting", "connected"]);
  });
}

Deno.test("carrySlack() waits out a 429's Retry-After on chat.update and the final text arrives", async () => {
  await using t = await carrier({ echoBotMessages: false });
  t.fake.failNext("chat.update", { rateLimited: 7 });
  const reply = t.model.reply("Slow and steady wins", { chunks: ["Slow ", "and steady ", "wins"] });
  t.fake.userSays(t.dm, t.owner, "go");
  await reply.done;
  const updates = () => t.fake.calls.filter((c) => c.method === "chat.update");
  await advanceUntil(t.clock, () => updates().length === 1 && updates()[0]!.answer !== undefined);
  assert.equal(updates()[0]!.answer?.status, 429);
  await t.clock.advance(6000);
  assert.equal(updates().length, 1, "chat.update was called again before the Retry-After passed");
  await advanceUntil(t.clock, () => t.answers().at(-1) === "Slow and steady wins" && inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["Slow and steady wins"]);
  assert.deepEqual(updates().map((c) => c.answer?.status), [429, ...updates().slice(1).map(() => 200)]);
  assert.equal(updates().at(-1)?.params.text, "Slow and steady wins");
});

Deno.test("carrySlack() says failed, with why, when Slack refuses the app-level token", async () => {
  await using t = await carrier();
  t.fake.revoke(t.fake.appToken);
  t.fake.dropSockets();
  await advanceBoth(t, () => t.states.at(-1)?.state === "failed");
  assert.deepEqual(t.states.map(({ state, why }) => ({ state, why })), [
    { state: "connected", why: undefined },
    { state: "reconnecting", why: "Slack closed the connection" },
    { state: "failed", why: "Slack refused the app-level token: it may have been revoked" },
  ]);
});

Deno.test("carrySlack() says failed, with why, when Slack refuses the bot token, and keeps the message", async () => {
  await using t = await carrier();
  t.fake.revoke(t.fake.botToken);
  t.model.reply("Never shown");
  t.fake.userSays(t.dm, t.owner, "hi");
  await advanceBoth(t, () => t.states.at(-1)?.state === "failed");
  assert.deepEqual(t.states.map(({ state, why }) => ({ state, why })), [
    { state: "connected", why: undefined },
    { state: "failed", why: "Slack refused the bot token: it may have been revoked" },
  ]);
  assert.deepEqual(t.answers(), []);
  assert.equal([...Deno.readDirSync(inboxDir(t.stateDir))].length, 1, "the unanswered message was let go");
});
