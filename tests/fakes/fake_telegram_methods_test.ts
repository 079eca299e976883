// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { serveFakeTelegram } from "./fake_telegram.ts";
import assert from "node:assert/strict";
import { HttpError } from "grammy";
import { apiOf, grammyError, owner } from "./_telegram_support.ts";

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

Deno.test("editMessageText edits in place, and says when nothing changed, the text is too long or the message is missing", async () => {
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
  const long = await grammyError(api.editMessageText(chat.id, sent.message_id, "x".repeat(4097)));
  assert.deepEqual([long.error_code, long.description], [400, "Bad Request: MESSAGE_TOO_LONG"]);
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

Deno.test("failNext answers 429 with retry_after as GrammyError sees it, then the call works again", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { chat } = owner(tg);
  tg.failNext("sendMessage", {
    error_code: 429,
    description: "Too Many Requests: retry after 3",
    parameters: { retry_after: 3 },
  });
  const err = await grammyError(api.sendMessage(chat.id, "hi"));
  assert.deepEqual([err.error_code, err.description, err.parameters], [
    429,
    "Too Many Requests: retry after 3",
    { retry_after: 3 },
  ]);
  assert.equal(err.message, "Call to 'sendMessage' failed! (429: Too Many Requests: retry after 3)");
  assert.deepEqual(tg.sent(chat.id), [], "the refused message was not sent");
  const ok = await api.sendMessage(chat.id, "hi");
  assert.deepEqual(tg.sent(chat.id), [ok]);
});

Deno.test("failNext answers a 5xx, or a body that is no JSON, which grammY sees as an HttpError", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  tg.failNext("getMe", { error_code: 502, description: "Bad Gateway" });
  tg.failNext("getMe", { garbage: "<html><body>502 Bad Gateway</body></html>" });
  const server = await grammyError(api.getMe());
  assert.deepEqual([server.error_code, server.description], [502, "Bad Gateway"]);
  const garbage = await api.getMe().then(() => undefined, (e: unknown) => e);
  assert.ok(garbage instanceof HttpError, `expected an HttpError, got ${garbage}`);
  assert.equal(garbage.message, "Network request for 'getMe' failed!");
  assert.equal(tg.calls.at(-1)?.answer, "garbage");
  assert.equal((await api.getMe()).id, tg.bot.id);
});

Deno.test("an unknown token and a revoked one get 401 Unauthorized, a held poll too; an added token works", async () => {
  await using tg = await serveFakeTelegram();
  const stranger = await grammyError(apiOf(tg, "123:nope").getMe());
  assert.deepEqual([stranger.error_code, stranger.description], [401, "Unauthorized"]);
  const polling = apiOf(tg).getUpdates({ timeout: 50 });
  await tg.nextCall("getUpdates");
  tg.revoke(tg.token);
  const held = await grammyError(polling);
  assert.deepEqual([held.error_code, held.description], [401, "Unauthorized"]);
  const after = await grammyError(apiOf(tg).getMe());
  assert.equal(after.error_code, 401);
  const fresh = tg.addToken();
  assert.equal((await apiOf(tg, fresh).getMe()).id, tg.bot.id);
});

Deno.test("an unknown method is 404 Not Found, and method names are read in any case", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const err = await grammyError(
    (api.raw as unknown as Record<string, (p: object) => Promise<unknown>>).sendTelepathy!({}),
  );
  assert.deepEqual([err.error_code, err.description], [404, "Not Found"]);
  const response = await fetch(`${tg.apiRoot}/bot${tg.token}/GETME`);
  assert.deepEqual(await response.json(), { ok: true, result: await api.getMe() });
  const root = await fetch(`${tg.apiRoot}/nothing`);
  assert.deepEqual([root.status, await root.json()], [404, {
    ok: false,
    error_code: 404,
    description: "Not Found",
  }]);
});

Deno.test("parameters come as a query, a form or JSON, JSON-serialized fields parsed from strings", async () => {
  await using tg = await serveFakeTelegram();
  const { ada, chat } = owner(tg);
  const asked = tg.userSays(chat, ada, "q");
  const query = await fetch(`${tg.apiRoot}/bot${tg.token}/sendMessage?chat_id=${chat.id}&text=by+query`);
  const form = await fetch(`${tg.apiRoot}/bot${tg.token}/sendMessage`, {
    method: "POST",
    body: new URLSearchParams({
      chat_id: String(chat.id),
      text: "by form",
      reply_parameters: JSON.stringify({ message_id: asked.message_id }),
    }),
  });
  const multipart = new FormData();
  multipart.set("chat_id", String(chat.id));
  multipart.set("text", "by multipart");
  const parts = await fetch(`${tg.apiRoot}/bot${tg.token}/sendMessage`, { method: "POST", body: multipart });
  const results = await Promise.all([query, form, parts].map(async (r) => (await r.json()).result));
  assert.deepEqual(results.map((m) => [m.text, m.reply_to_message?.message_id]), [
    ["by query", undefined],
    ["by form", asked.message_id],
    ["by multipart", undefined],
  ]);
  assert.deepEqual(tg.calls[1]?.params, {
    chat_id: String(chat.id),
    text: "by form",
    reply_parameters: JSON.stringify({ message_id: asked.message_id }),
  });
});

Deno.test("setMessageReaction takes Telegram's emoji on an existing message; deleteMessage removes it", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { ada, chat } = owner(tg);
  const theirs = tg.userSays(chat, ada, "look");
  assert.equal(
    await api.setMessageReaction(chat.id, theirs.message_id, [{ type: "emoji", emoji: "👀" }]),
    true,
  );
  assert.deepEqual(tg.history(chat.id)[0]?.bot_reaction, [{ type: "emoji", emoji: "👀" }]);
  const odd = await grammyError(
    api.setMessageReaction(chat.id, theirs.message_id, [{ type: "emoji", emoji: "🦆" as "👀" }]),
  );
  assert.deepEqual([odd.error_code, odd.description], [400, "Bad Request: REACTION_INVALID"]);
  const gone = await grammyError(api.setMessageReaction(chat.id, 77, []));
  assert.deepEqual([gone.error_code, gone.description], [400, "Bad Request: MESSAGE_ID_INVALID"]);
  const mine = await api.sendMessage(chat.id, "oops");
  assert.equal(await api.deleteMessage(chat.id, mine.message_id), true);
  assert.deepEqual(tg.sent(chat.id), []);
  const twice = await grammyError(api.deleteMessage(chat.id, mine.message_id));
  assert.deepEqual([twice.error_code, twice.description], [400, "Bad Request: message to delete not found"]);
});

Deno.test("parse_mode HTML and MarkdownV2 render to text and entities, or fail as Telegram does", async () => {
  await using tg = await serveFakeTelegram();
  const api = apiOf(tg);
  const { chat } = owner(tg);
  const html = await api.sendMessage(chat.id, '<b>bold</b> &amp; <a href="https://x.test">link</a>', {
    parse_mode: "HTML",
  });
  assert.deepEqual([html.text, html.entities], ["bold & link", [
    { type: "bold", offset: 0, length: 4 },
    { type: "text_link", offset: 7, length: 4, url: "https://x.test" },
  ]]);
  const md = await api.sendMessage(chat.id, "*hi* `a.b` 1\\.", { parse_mode: "MarkdownV2" });
  assert.deepEqual([md.text, md.entities], ["hi a.b 1.", [
    { type: "bold", offset: 0, length: 2 },
    { type: "code", offset: 3, length: 3 },
  ]]);
  const dot = await grammyError(api.sendMessage(chat.id, "Done.", { parse_mode: "MarkdownV2" }));
  assert.deepEqual([dot.error_code, dot.description], [
    400,
    "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
  ]);
  const open = await grammyError(api.sendMessage(chat.id, "<b>open", { parse_mode: "HTML" }));
  assert.deepEqual([open.error_code, open.description], [
    400,
    "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
  ]);
  const long = await grammyError(
    api.sendMessage(chat.id, `<b>${"x".repeat(4097)}</b>`, { parse_mode: "HTML" }),
  );
  assert.equal(long.description, "Bad Request: message is too long");
  const fits = await api.sendMessage(chat.id, `<b>${"x".repeat(4096)}</b>`, { parse_mode: "HTML" });
  assert.equal(fits.text?.length, 4096, "the limit counts the text after its markup is parsed");
});
