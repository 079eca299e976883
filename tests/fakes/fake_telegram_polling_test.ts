// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { serveFakeTelegram } from "./fake_telegram.ts";
import assert from "node:assert/strict";
import { Bot, HttpError } from "grammy";
import { FakeClock } from "../support/fake_clock.ts";
import { apiOf, grammyError, owner } from "./_telegram_support.ts";

Deno.test("getUpdates returns every unconfirmed update until an offset past it confirms it", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const first = tg.userSays(chat, ada, "one");
  tg.userSays(chat, ada, "two");
  const again = async (offset?: number) =>
    (await api.getUpdates(offset === undefined ? {} : { offset })).map((u) => u.message?.text);
  assert.deepEqual(await again(), ["one", "two"]);
  assert.deepEqual(await again(), ["one", "two"], "nothing is confirmed without an offset");
  const [u1, u2] = await api.getUpdates();
  assert.equal(u2!.update_id, u1!.update_id + 1);
  assert.deepEqual(u1!.message, {
    message_id: 1,
    from: ada,
    chat: { id: ada.id, type: "private", first_name: "Ada", username: "ada" },
    date: first.date,
    text: "one",
  });
  assert.deepEqual(await again(u1!.update_id + 1), ["two"]);
  assert.deepEqual(await again(), ["two"], "the confirmed update is gone for good");
  assert.deepEqual(await again(u2!.update_id + 1), []);
  assert.deepEqual(tg.pendingUpdates, []);
});

Deno.test("getUpdates honours limit and a negative offset keeps only the last updates", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  for (const text of ["a", "b", "c", "d"]) tg.userSays(chat, ada, text);
  assert.deepEqual((await api.getUpdates({ limit: 2 })).map((u) => u.message?.text), ["a", "b"]);
  assert.deepEqual((await api.getUpdates({ offset: -1 })).map((u) => u.message?.text), ["d"]);
  assert.deepEqual(tg.pendingUpdates.map((u) => (u.message as { text: string }).text), ["d"]);
});

Deno.test("a long poll is held open and answered as soon as an update arrives", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const polling = api.getUpdates({ timeout: 50 });
  await tg.nextCall("getUpdates");
  assert.equal(tg.polling, true);
  tg.userSays(chat, ada, "hello");
  const updates = await polling;
  assert.deepEqual(updates.map((u) => u.message?.text), ["hello"]);
  assert.equal(tg.polling, false);
});

Deno.test("a second getUpdates ends the held one with 409 Conflict", async () => {
  await using tg = await serveFakeTelegram();
  const first = apiOf(tg).getUpdates({ timeout: 50 });
  await tg.nextCall("getUpdates");
  const second = apiOf(tg).getUpdates({ timeout: 0 });
  const err = await grammyError(first);
  assert.deepEqual([err.error_code, err.description, err.method], [
    409,
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    "getUpdates",
  ]);
  assert.deepEqual(await second, []);
});

Deno.test("a Bot started on the fake answers a message through its real polling loop", async () => {
  await using tg = await serveFakeTelegram();
  const { ada, chat } = owner(tg);
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  bot.on("message:text", (ctx) => ctx.reply(`You said: ${ctx.message.text}`));
  const running = bot.start({ timeout: 30 });
  await tg.nextCall("getUpdates");
  tg.userSays(chat, ada, "ping");
  const reply = await tg.nextCall("sendMessage");
  assert.deepEqual(reply.params, { chat_id: chat.id, text: "You said: ping" });
  await tg.nextCall("getUpdates", (c) => c.params.offset !== undefined);
  await bot.stop();
  await running;
  assert.deepEqual(tg.pendingUpdates, [], "stop() confirmed the update");
  assert.deepEqual(tg.sent(chat.id).map((m) => m.text), ["You said: ping"]);
});

Deno.test("a long poll with nothing to say answers [] when its timeout passes", async () => {
  const clock = new FakeClock();
  await using tg = await serveFakeTelegram({ clock });
  const polling = apiOf(tg).getUpdates({ timeout: 30 });
  await clock.waitForSleepers();
  await clock.advance(29_999);
  assert.equal(tg.polling, true);
  await clock.advance(1);
  assert.deepEqual(await polling, []);
  assert.equal(tg.polling, false);
});

Deno.test("allowed_updates filters the updates made after it was set, and [] restores the default", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const before = tg.userSays(chat, ada, "before");
  await api.getUpdates({ allowed_updates: ["edited_message"] });
  tg.userSays(chat, ada, "filtered out");
  tg.userEdits(before, "before, edited");
  const kinds = (updates: { message?: unknown; edited_message?: unknown }[]) =>
    updates.map((u) => Object.keys(u).filter((k) => k !== "update_id"));
  assert.deepEqual(kinds(await api.getUpdates()), [["message"], ["edited_message"]]);
  await api.getUpdates({ allowed_updates: [] });
  tg.enqueue({ message_reaction: { chat, message_id: before.message_id } });
  tg.userSays(chat, ada, "after");
  assert.deepEqual(kinds(await api.getUpdates()), [["message"], ["edited_message"], ["message"]]);
});

Deno.test("updates carry what Telegram sends: edits, a photo or sticker without text, a bot, a mention in a group", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const helper = tg.user("Helper", { is_bot: true, username: "helper_bot" });
  const group = tg.group("Team", [ada, helper]);
  const said = tg.userSays(chat, ada, "/start");
  tg.userEdits(said, "/start again");
  tg.userSendsPhoto(chat, ada);
  tg.userSendsSticker(chat, ada, "🔥");
  tg.userSays(group, helper, "beep");
  tg.userSays(group, ada, "hey @link_test_bot look");
  const updates = await api.getUpdates();
  assert.deepEqual(updates[0]!.message?.entities, [{ type: "bot_command", offset: 0, length: 6 }]);
  assert.deepEqual(updates[1]!.edited_message?.text, "/start again");
  assert.equal(typeof updates[1]!.edited_message?.edit_date, "number");
  assert.deepEqual([updates[2]!.message?.text, updates[2]!.message?.photo?.length], [undefined, 3]);
  assert.deepEqual([updates[3]!.message?.text, updates[3]!.message?.sticker?.emoji], [undefined, "🔥"]);
  assert.deepEqual(updates[4]!.message?.from, helper);
  assert.deepEqual(updates[4]!.message?.chat, { id: group.id, type: "group", title: "Team" });
  assert.deepEqual(updates[5]!.message?.entities, [{ type: "mention", offset: 4, length: 14 }]);
  assert.deepEqual(updates.map((u) => u.update_id - updates[0]!.update_id), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(tg.history(chat.id).map((m) => m.text), ["/start again", undefined, undefined]);
});

Deno.test("userEdits leaves an unfetched update with the text it was sent with, as Telegram does", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const said = tg.userSays(chat, ada, "first words");
  tg.userEdits(said, "second words");
  tg.userEdits(said, "third words");
  const updates = await api.getUpdates();
  assert.deepEqual(updates.map((u) => [u.message?.text, u.edited_message?.text]), [
    ["first words", undefined],
    [undefined, "second words"],
    [undefined, "third words"],
  ]);
  assert.equal(updates[0]!.message?.edit_date, undefined);
  assert.deepEqual(tg.history(chat.id).map((m) => m.text), ["third words"]);
});

Deno.test("in privacy mode a group's messages reach the bot only as commands, mentions and replies", async () => {
  await using tg = await serveFakeTelegram({ readsAllGroupMessages: false });
  const api = apiOf(tg);
  const ada = tg.user("Ada");
  const group = tg.group("Team", [ada]);
  tg.userSays(group, ada, "just chatting");
  tg.userSays(group, ada, "/help");
  tg.userSays(group, ada, "@link_test_bot hi");
  const answer = await api.sendMessage(group.id, "Hello");
  tg.userSays(group, ada, "thanks", { reply_to_message: answer });
  tg.userSays(tg.privateChat(ada), ada, "private");
  assert.equal((await api.getMe()).can_read_all_group_messages, false);
  assert.deepEqual((await api.getUpdates()).map((u) => u.message?.text), [
    "/help",
    "@link_test_bot hi",
    "thanks",
    "private",
  ]);
  assert.equal(tg.history(group.id).length, 5, "the group still holds every message");
});

Deno.test("dropConnections destroys a held long poll mid-request, which grammY sees as an HttpError", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const polling = api.getUpdates({ timeout: 50 });
  await tg.nextCall("getUpdates");
  assert.equal(tg.dropConnections(), 1);
  const err = await polling.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof HttpError, `expected an HttpError, got ${err}`);
  assert.equal(err.message, "Network request for 'getUpdates' failed!");
  assert.equal(tg.polling, false);
  assert.equal(tg.calls[0]?.answer, "dropped");
  tg.userSays(chat, ada, "still here");
  assert.deepEqual((await api.getUpdates({ timeout: 50 })).map((u) => u.message?.text), ["still here"]);
});

Deno.test("a poll dropped on a reused keep-alive connection is sent again by Deno's HTTP client", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  await api.getMe();
  const polling = api.getUpdates({ timeout: 50 });
  await tg.nextCall("getUpdates");
  assert.equal(tg.dropConnections(), 1);
  await tg.nextCall("getUpdates");
  tg.userSays(chat, ada, "after the drop");
  assert.deepEqual((await polling).map((u) => u.message?.text), ["after the drop"]);
  assert.deepEqual(tg.calls.map((c) => [c.method, c.answer === "dropped"]), [
    ["getMe", false],
    ["getUpdates", true],
    ["getUpdates", false],
  ]);
});

Deno.test("a Bot whose poll fails polls again and still gets the update", async () => {
  await using tg = await serveFakeTelegram();
  const { ada, chat } = owner(tg);
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  const got = Promise.withResolvers<string>();
  bot.on("message:text", (ctx) => got.resolve(ctx.message.text));
  tg.failNext("getUpdates", { drop: true });
  const running = bot.start({ timeout: 30 });
  await tg.nextCall("getUpdates");
  await tg.nextCall("getUpdates");
  tg.userSays(chat, ada, "after the drop");
  assert.equal(await got.promise, "after the drop");
  await bot.stop();
  await running;
});
