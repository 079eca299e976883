import assert from "node:assert/strict";
import { ONLY_TEXT_REPLY, SIGNAL_LIMIT, STALE_MS } from "../../../connections/signal/mod.ts";
import { KEEP_ALIVE_MS } from "../../fakes/fake_signal.ts";
import { advanceUntil, signalCarrier, textsTo, userTexts } from "./_support.ts";

Deno.test("carrySignal() answers the owner in session signal:<number> with typing, the whole answer split at 2,000; a stranger and a group dropped", async () => {
  await using t = await signalCarrier();
  await t.fake.streamsWhen((s) => s.open === 1);
  const stranger = t.fake.person("Eve");
  const family = t.fake.group("Family", [t.owner, stranger]);
  t.fake.personSays(stranger, "let me in");
  t.fake.inGroup(family, t.owner, "hello group");
  const long = `${"word ".repeat(500).trim()}\n\n${"more ".repeat(100).trim()}`;
  const reply = t.model.reply(long);
  t.fake.personSays(t.owner, "hi");
  await reply.done;
  await t.answered(t.owner.number, 2);
  const sent = textsTo(t.fake, t.owner.number);
  assert.equal(sent.length, 2);
  assert.equal(sent.join(" "), long);
  assert.ok(sent.every((m) => m.length <= SIGNAL_LIMIT));
  assert.deepEqual(userTexts(t.model), ["hi"]);
  assert.ok(
    (await t.harness.events(`signal:${t.owner.number}`)).length > 0,
    "no conversation signal:<number>",
  );
  assert.deepEqual(t.fake.typing(t.owner), ["started", "stopped"]);
  const toOwner = t.fake.calls.filter((c) =>
    (c.params.recipient as string[] | undefined)?.[0] === t.owner.number
  );
  assert.deepEqual(toOwner.map((c) => c.method), ["sendTyping", "sendTyping", "send", "send"]);
  assert.ok(t.fake.calls.every((c) => c.params.account === t.fake.account));
  assert.deepEqual(t.fake.sent(stranger), []);
  assert.deepEqual(t.fake.sent(family), []);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(t.states.map((s) => s.state), ["connected"]);
});

Deno.test("carrySignal() answers a person in [access] message in their own session with Link-From", async () => {
  let guest!: ReturnType<typeof t.fake.person>;
  await using t = await signalCarrier({
    access: (fake) => {
      guest = fake.person("Grace");
      return { chats: new Set(), persons: new Set([guest.number]) };
    },
  });
  const reply = t.model.reply("Hello, guest");
  t.fake.personSays(guest, "hi from a guest");
  await reply.done;
  await t.answered(guest.number);
  assert.deepEqual(textsTo(t.fake, guest.number), ["Hello, guest"]);
  const events = JSON.stringify(await t.harness.events(`signal:${guest.number}`));
  assert.ok(events.includes(`person:signal:${guest.number}`), "the message was not kept as the person's");
  assert.deepEqual(t.fake.sent(t.owner), []);
});

Deno.test("carrySignal() answers a message with only an attachment or a sticker with a short only-text reply", async () => {
  await using t = await signalCarrier();
  const photo = {
    contentType: "image/jpeg",
    filename: "a.jpg",
    id: "a.jpg",
    size: 10,
    width: 1,
    height: 1,
    caption: null,
    uploadTimestamp: null,
  };
  t.fake.personSays(t.owner, null, { attachments: [photo] });
  t.fake.personSays(t.owner, null, { sticker: { packId: "p", stickerId: 1 } });
  await t.answered(t.owner.number, 2);
  assert.deepEqual(textsTo(t.fake, t.owner.number), [ONLY_TEXT_REPLY, ONLY_TEXT_REPLY]);
  assert.equal(t.model.requests.length, 0);
});

Deno.test("carrySignal() answers once an envelope the daemon replays", async () => {
  await using t = await signalCarrier();
  const reply = t.model.reply("Answered once");
  t.fake.personSays(t.owner, "hi");
  await reply.done;
  await t.answered(t.owner.number);
  t.fake.replay();
  const next = t.model.reply("The next one");
  t.fake.personSays(t.owner, "and now");
  await next.done;
  await t.answered(t.owner.number, 2);
  assert.deepEqual(textsTo(t.fake, t.owner.number), ["Answered once", "The next one"]);
  assert.equal(t.model.requests.length, 2);
});

Deno.test("carrySignal() notices a stream gone silent and opens another, losing nothing", async () => {
  await using t = await signalCarrier();
  await t.fake.streamsWhen((s) => s.open === 1);
  // The daemon's keep-alives hold a quiet stream open; a request between steps lets each be read.
  for (let i = 0; i < 5; i++) {
    await t.clock.advance(KEEP_ALIVE_MS);
    await (await fetch(`${t.fake.url}/api/v1/check`)).body?.cancel();
  }
  assert.equal(t.fake.streams.ever, 1);
  assert.equal(t.fake.stopStream(), 1);
  const silentAt = t.clock.now();
  await advanceUntil(t.clock, () => t.fake.streams.ever === 2);
  assert.ok(t.clock.now() - silentAt >= STALE_MS - KEEP_ALIVE_MS, "reconnected before the stream was stale");
  const reply = t.model.reply("Still here");
  t.fake.personSays(t.owner, "are you there");
  await reply.done;
  await t.answered(t.owner.number);
  assert.deepEqual(textsTo(t.fake, t.owner.number), ["Still here"]);
  assert.deepEqual(t.states.map((s) => [s.state, s.why]), [
    ["connected", undefined],
    ["reconnecting", "the event stream was silent for 45 s"],
    ["connected", undefined],
  ]);
});

Deno.test("carrySignal() reconnects to a restarted daemon with backoff and answers once what came meanwhile", async () => {
  await using t = await signalCarrier();
  const first = t.model.reply("Before");
  t.fake.personSays(t.owner, "one");
  await first.done;
  await t.answered(t.owner.number);
  await t.fake.goDown();
  const meanwhile = t.model.reply("After the restart");
  t.fake.personSays(t.owner, "two");
  // The carrier finds nothing answering and waits, longer each time.
  await advanceUntil(t.clock, () => t.states.length >= 3);
  t.fake.comeBack({ replay: true });
  await advanceUntil(t.clock, () => t.fake.streams.ever === 2);
  await meanwhile.done;
  await t.answered(t.owner.number, 2);
  assert.deepEqual(textsTo(t.fake, t.owner.number), ["Before", "After the restart"]);
  assert.equal(t.model.requests.length, 2);
  assert.deepEqual(t.states.map((s) => s.state), ["connected", "reconnecting", "reconnecting", "connected"]);
  assert.match(t.states[1]!.why ?? "", /closed the event stream/);
  assert.match(t.states[2]!.why ?? "", /^the daemon does not answer/);
});
