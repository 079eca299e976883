import assert from "node:assert/strict";
import { DISCORD_LIMIT, ONLY_TEXT_REPLY } from "../../../connections/discord/mod.ts";
import { advanceUntil, botTexts, carrier, inboxEmpty, userTexts } from "./_support.ts";

Deno.test("carryDiscord() answers the owner's DM in session discord:<channel>: typing, posted then edited, the final text whole", async () => {
  await using t = await carrier();
  const { fake } = t;
  const reply = t.model.reply("Hello there, Ada. How are you?", {
    chunks: ["Hello there, ", "Ada. ", "How are you?"],
  });
  fake.userSays(t.dm, t.owner, "hi");
  await reply.done;
  await advanceUntil(
    t.clock,
    () => t.answers().at(-1) === "Hello there, Ada. How are you?" && inboxEmpty(t.stateDir),
  );
  assert.deepEqual(t.answers(), ["Hello there, Ada. How are you?"]);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(userTexts(t.model, 0), ["hi"]);
  const messages = (await t.harness.events(`discord:${t.dm.id}`)).filter((e) => e.event.type === "message");
  assert.deepEqual(messages.map((e) => [e.event.type === "message" && e.event.text, "from" in e.event]), [
    ["hi", false],
  ]);
  assert.ok(fake.typing(t.dm).length >= 1, "typing was never shown");
  // Its one read of the DM's history (the catch-up at READY) aside, it posts and then edits.
  const changes = fake.calls.filter((c) =>
    c.params.id === t.dm.id && c.route.includes("/messages") && !c.route.startsWith("GET")
  );
  assert.deepEqual([...new Set(changes.map((c) => c.route))], [
    "POST /channels/:id/messages",
    "PATCH /channels/:id/messages/:mid",
  ]);
  assert.equal(changes.filter((c) => c.route === "POST /channels/:id/messages").length, 1);
  assert.deepEqual(changes.at(-1)?.body, { content: "Hello there, Ada. How are you?" });
  assert.deepEqual(fake.rateLimitViolations, []);
  assert.deepEqual(t.states.map((s) => s.state), ["connected"]);
});

Deno.test("carryDiscord() splits an answer past 2,000 characters, a code block kept whole", async () => {
  await using t = await carrier();
  const prose = "word ".repeat(300).trim();
  const code = "```ts\n" + Array.from({ length: 60 }, (_, i) => `const value${i} = ${i};`).join("\n") +
    "\n```";
  const text = `${prose}\n\n${code}\n\nThat is all.`;
  const reply = t.model.reply(text);
  t.fake.userSays(t.dm, t.owner, "long one");
  await reply.done;
  await advanceUntil(
    t.clock,
    () => t.answers().join("").replace(/\s/g, "") === text.replace(/\s/g, "") && inboxEmpty(t.stateDir),
  );
  const parts = t.answers();
  assert.ok(parts.length >= 2, "the answer was not split");
  for (const part of parts) assert.ok(part.length <= DISCORD_LIMIT, `a part of ${part.length} characters`);
  assert.ok(parts.some((p) => p.includes(code)), "the code block was cut");
});

Deno.test("carryDiscord() answers a member's mention in a shared channel there, from person:discord:<id>; a bot, a stranger's DM and an unshared channel never", async () => {
  await using t = await carrier();
  const { fake, general } = t;
  const unshared = fake.channel(fake.guild("other"), "random");
  const bob = fake.user("bob");
  const eve = fake.user("eve");
  const robot = fake.user("robot", { bot: true });
  fake.userSays(fake.dm(eve), eve, "let me in");
  fake.userSays(unshared, bob, "anyone?", { mentionBot: true });
  fake.userSays(general, robot, "beep", { mentionBot: true });
  fake.userSays(general, bob, "no mention here");
  const reply = t.model.reply("It is noon, Bob.");
  fake.userSays(general, bob, "what time is it?", { mentionBot: true });
  await reply.done;
  await advanceUntil(
    t.clock,
    () => botTexts(fake, general).at(-1) === "It is noon, Bob." && inboxEmpty(t.stateDir),
  );
  assert.equal(t.model.requests.length, 1);
  const messages = (await t.harness.events(`discord:${general.id}`)).flatMap((e) =>
    e.event.type === "message" ? [{ text: e.event.text, from: e.event.from }] : []
  );
  assert.deepEqual(messages, [{ text: "what time is it?", from: `person:discord:${bob.id}` }]);
  assert.deepEqual(botTexts(fake, general), ["It is noon, Bob."]);
  assert.deepEqual(botTexts(fake, fake.dm(eve)), []);
  assert.deepEqual(botTexts(fake, unshared), []);
});

Deno.test("carryDiscord() answers a message of only a file or a sticker with a short text, the agent never asked", async () => {
  await using t = await carrier();
  t.fake.userSays(t.dm, t.owner, "", {
    attachments: [{
      id: "1",
      filename: "cat.png",
      size: 10,
      url: "https://cdn/cat.png",
      proxy_url: "https://cdn/cat.png",
    }],
  });
  t.fake.userSays(t.dm, t.owner, "", { sticker_items: [{ id: "2", name: "wave", format_type: 1 }] });
  await advanceUntil(t.clock, () => t.answers().length === 2 && inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), [ONLY_TEXT_REPLY, ONLY_TEXT_REPLY]);
  assert.equal(t.model.requests.length, 0);
});

Deno.test("carryDiscord() stopped while the client waits out its reconnect opens no socket late", async () => {
  await using t = await carrier();
  assert.equal(t.fake.sendReconnect(), 1);
  await t.stateWhen((s) => s.state === "reconnecting");
  await t.stop();
  // Stopping waited until the client's reconnect asked for its session and was held there.
  assert.equal(t.fake.sockets.open, 0);
});
