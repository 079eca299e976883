// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { type FakeTelegram, serveFakeTelegram, type TgChat, type TgUser } from "./fake_telegram.ts";
import assert from "node:assert/strict";
import { Api, Bot, GrammyError, HttpError } from "grammy";

function apiOf(tg: FakeTelegram, token = tg.token): Api {
  return new Api(token, { apiRoot: tg.apiRoot });
}

function owner(tg: FakeTelegram): { ada: TgUser; chat: TgChat } {
  const ada = tg.user("Ada", { username: "ada" });
  return { ada, chat: tg.privateChat(ada) };
}

async function grammyError(promise: Promise<unknown>): Promise<GrammyError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof GrammyError, `expected a GrammyError, got ${err}`);
  return err;
}

Deno.test("getMe answers the bot as a User with its capabilities", async () => {
  await using tg = await serveFakeTelegram();
  const me = await apiOf(tg).getMe();
  assert.deepEqual(me, {
    id: tg.bot.id,
    is_bot: true,
    first_name: "Link Test",
    username: "link_test_bot",
    can_join_groups: true,
    can_read_all_group_messages: true,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  });
  assert.deepEqual(tg.calls.map((c) => [c.method, c.params, c.token]), [["getMe", {}, tg.token]]);
});

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

Deno.test("sendMessage returns a Message with ids per chat, and sent() reads the chat", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const asked = tg.userSays(chat, ada, "hi");
  const bob = tg.user("Bob");
  const other = tg.privateChat(bob);
  const m1 = await api.sendMessage(chat.id, "Hello <b>Ada</b>", {
    parse_mode: "HTML",
    reply_parameters: { message_id: asked.message_id },
  });
  const m2 = await api.sendMessage(other.id, "Hello Bob");
  assert.deepEqual(m1, {
    message_id: 2,
    from: tg.bot,
    chat: tg.privateChat(ada),
    date: m1.date,
    text: "Hello Ada",
    entities: [{ type: "bold", offset: 6, length: 3 }],
    reply_to_message: asked,
  });
  assert.equal(m2.message_id, 1);
  assert.deepEqual(tg.sent(chat.id), [m1]);
  const call = await tg.nextCall("sendMessage", (c) => c.params.chat_id === other.id);
  assert.deepEqual(call.params, { chat_id: other.id, text: "Hello Bob" });
});

Deno.test("sendMessage refuses an empty text, one over 4096 characters, a missing reply and a wrong chat", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { chat } = owner(tg);
  const described = async (p: Promise<unknown>) => {
    const err = await grammyError(p);
    return [err.error_code, err.description];
  };
  assert.deepEqual(await described(api.sendMessage(chat.id, "")), [
    400,
    "Bad Request: message text is empty",
  ]);
  assert.deepEqual(await described(api.sendMessage(chat.id, "x".repeat(4097))), [
    400,
    "Bad Request: message is too long",
  ]);
  assert.deepEqual(await described(api.sendMessage(chat.id, "x", { reply_parameters: { message_id: 99 } })), [
    400,
    "Bad Request: message to be replied not found",
  ]);
  assert.deepEqual(await described(api.sendMessage(123, "x")), [400, "Bad Request: chat not found"]);
  const full = await api.sendMessage(chat.id, "x".repeat(4096));
  assert.equal(full.text?.length, 4096);
  assert.deepEqual(tg.sent(chat.id).map((m) => m.message_id), [full.message_id]);
});

Deno.test("editMessageText edits in place, and says when nothing changed or the message is missing", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const sent = await api.sendMessage(chat.id, "Thinking");
  const edited = await api.editMessageText(chat.id, sent.message_id, "Done");
  assert.deepEqual(edited, { ...sent, text: "Done", edit_date: (edited as { edit_date: number }).edit_date });
  assert.deepEqual(tg.sent(chat.id).map((m) => m.text), ["Done"]);
  const same = await grammyError(api.editMessageText(chat.id, sent.message_id, "Done"));
  assert.deepEqual([same.error_code, same.description], [
    400,
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
  ]);
  const missing = await grammyError(api.editMessageText(chat.id, 999, "Done"));
  assert.deepEqual([missing.error_code, missing.description], [
    400,
    "Bad Request: message to edit not found",
  ]);
  const theirs = tg.userSays(chat, ada, "mine");
  const refused = await grammyError(api.editMessageText(chat.id, theirs.message_id, "yours"));
  assert.deepEqual([refused.error_code, refused.description], [400, "Bad Request: message can't be edited"]);
});

Deno.test("sendChatAction takes the Bot API's actions only", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { chat } = owner(tg);
  assert.equal(await api.sendChatAction(chat.id, "typing"), true);
  const err = await grammyError(api.sendChatAction(chat.id, "dancing" as "typing"));
  assert.deepEqual([err.error_code, err.description], [
    400,
    "Bad Request: wrong parameter action in request",
  ]);
  const call = await tg.nextCall("sendChatAction");
  assert.deepEqual(call.params, { chat_id: chat.id, action: "typing" });
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
  void HttpError;
});
