import assert from "node:assert/strict";
import { BOT_ID, BOT_USER_ID, TEAM_ID } from "../../fakes/fake_slack.ts";
import { advanceUntil, carrier, inboxEmpty, userTexts } from "./_support.ts";

/** A carrier whose #family (Ada and Bob) is shared. */
async function sharedChannel() {
  let room!: ReturnType<Awaited<ReturnType<typeof carrier>>["fake"]["channel"]>;
  const t = await carrier({
    access: (fake) => {
      room = fake.channel("family", [fake.user("bob")]);
      return { chats: new Set([`${TEAM_ID}:${room.id}`]), persons: new Set<string>() };
    },
  });
  return { t, room };
}

Deno.test("carrySlack() takes a reply in the thread under a mention of the app as for it, and answers in that thread", async () => {
  const { t, room } = await sharedChannel();
  await using _t = t;
  const first = t.model.reply("Hello from the channel");
  const mention = t.fake.userSays(room, t.owner, `<@${BOT_USER_ID}> hi`);
  await first.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.fake.messages(room).length === 2);
  const second = t.model.reply("Hello in the thread");
  t.fake.userSays(room, t.owner, "and a follow-up", { thread_ts: mention.ts });
  await second.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.fake.messages(room).length === 4);
  const fromApp = t.fake.messages(room).filter((m) => m.bot_id === BOT_ID);
  assert.deepEqual(fromApp.map((m) => [m.text, m.thread_ts]), [
    ["Hello from the channel", undefined],
    ["Hello in the thread", mention.ts],
  ]);
  assert.deepEqual(userTexts(t, 1).at(-1), "and a follow-up");
  assert.equal(t.model.requests.length, 2);
});

Deno.test("carrySlack() answers a thread reply that names the app once, and never a thread under a message not for it", async () => {
  const { t, room } = await sharedChannel();
  await using _t = t;
  const bob = t.fake.user("bob");
  const chatter = t.fake.userSays(room, bob, "lunch?");
  t.fake.userSays(room, t.owner, "yes", { thread_ts: chatter.ts });
  const reply = t.model.reply("Answered once");
  const mention = t.fake.userSays(room, bob, `<@${BOT_USER_ID}> join us?`, { thread_ts: chatter.ts });
  await reply.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.fake.messages(room).length === 4);
  const fromApp = t.fake.messages(room).filter((m) => m.bot_id === BOT_ID);
  assert.deepEqual(fromApp.map((m) => [m.text, m.thread_ts]), [["Answered once", chatter.ts]]);
  assert.equal(t.model.requests.length, 1);
  // The thread is the app's now: a reply in it without the mention is answered there too.
  const next = t.model.reply("Still here");
  t.fake.userSays(room, bob, "great", { thread_ts: mention.thread_ts });
  await next.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.fake.messages(room).length === 6);
  assert.equal(t.model.requests.length, 2);
});

Deno.test("carrySlack() answers the owner's reply in a DM thread in that thread", async () => {
  await using t = await carrier();
  const first = t.model.reply("Top level");
  const said = t.fake.userSays(t.dm, t.owner, "hi");
  await first.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.answers().length === 1);
  const second = t.model.reply("In the thread");
  t.fake.userSays(t.dm, t.owner, "more on that", { thread_ts: said.ts });
  await second.done;
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir) && t.answers().length === 2);
  const fromApp = t.fake.messages(t.dm).filter((m) => m.bot_id === BOT_ID);
  assert.deepEqual(fromApp.map((m) => [m.text, m.thread_ts]), [["Top level", undefined], [
    "In the thread",
    said.ts,
  ]]);
});
