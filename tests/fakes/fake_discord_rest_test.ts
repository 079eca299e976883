import assert from "node:assert/strict";
import { DiscordAPIError } from "@discordjs/rest";
import { type APIMessage, type APIUser, Routes } from "discord-api-types/v10";
import { type DiscordChannel, serveFakeDiscord } from "./fake_discord.ts";
import { restOf } from "./_discord_support.ts";

Deno.test("GET users/@me answers the bot's user; a bad token gets 401 with code 0", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  const me = await rest.get(Routes.user()) as APIUser;
  assert.deepEqual(me, {
    ...discord.bot,
    flags: 0,
    mfa_enabled: false,
    verified: true,
    banner: null,
    locale: "en-US",
  });
  assert.deepEqual([me.username, me.bot, me.discriminator], ["link_test", true, "0"]);
  using bad = restOf(discord, "not-a-token");
  const err = await (bad.get(Routes.user()) as Promise<unknown>).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof DiscordAPIError);
  assert.deepEqual([err.status, err.code, err.message, err.rawError], [401, 0, "401: Unauthorized", {
    message: "401: Unauthorized",
    code: 0,
  }]);
  const revoked = discord.addToken();
  discord.revoke(revoked);
  using gone = restOf(discord, revoked);
  await assert.rejects(gone.get(Routes.user()) as Promise<unknown>, { status: 401, code: 0 });
  assert.deepEqual(discord.calls.map((c) => [c.route, c.token, c.answer?.status]), [
    ["GET /users/@me", discord.token, 200],
    ["GET /users/@me", "not-a-token", 401],
    ["GET /users/@me", revoked, 401],
  ]);
});

Deno.test("GET gateway/bot gives the fake's url, one shard and the session start limit", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  assert.deepEqual(await rest.get(Routes.gatewayBot()), {
    url: discord.gatewayUrl,
    shards: 1,
    session_start_limit: { total: 1000, remaining: 1000, reset_after: 86_400_000, max_concurrency: 1 },
  });
  assert.match(discord.gatewayUrl, /^ws:\/\/127\.0\.0\.1:\d+$/);
});

Deno.test("POST channels/:id/messages sends, PATCH edits, typing is 204; messages() reads them now", async () => {
  await using discord = await serveFakeDiscord({ echoBotMessages: false });
  using rest = restOf(discord);
  const ada = discord.user("ada");
  const dm = await rest.post(Routes.userChannels(), { body: { recipient_id: ada.id } }) as DiscordChannel;
  assert.deepEqual(dm, discord.dm(ada));
  await rest.post(Routes.channelTyping(dm.id));
  assert.equal(discord.typing(dm.id).length, 1);
  const sent = await rest.post(Routes.channelMessages(dm.id), {
    body: { content: "Thinking…" },
  }) as APIMessage;
  assert.deepEqual([sent.channel_id, sent.content, sent.author.id, sent.edited_timestamp], [
    dm.id,
    "Thinking…",
    discord.bot.id,
    null,
  ]);
  const call = await discord.nextCall("POST /channels/:id/messages");
  assert.deepEqual([call.params, call.body, call.answer?.status], [
    { id: dm.id },
    { content: "Thinking…" },
    200,
  ]);
  const edited = await rest.patch(Routes.channelMessage(dm.id, sent.id), {
    body: { content: "Hello Ada" },
  }) as APIMessage;
  assert.equal(edited.content, "Hello Ada");
  assert.notEqual(edited.edited_timestamp, null);
  assert.deepEqual(discord.messages(dm), [edited]);
  await assert.rejects(
    rest.patch(Routes.channelMessage(dm.id, "1234"), { body: { content: "x" } }) as Promise<unknown>,
    { status: 404, code: 10008, message: "Unknown Message" },
  );
  await assert.rejects(
    rest.post(Routes.channelMessages("999"), { body: { content: "x" } }) as Promise<unknown>,
    { status: 404, code: 10003, message: "Unknown Channel" },
  );
});

Deno.test("content over 2,000 characters gets 400 with code 50035 and its errors", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  const dm = discord.dm(discord.user("ada"));
  const err =
    await (rest.post(Routes.channelMessages(dm.id), { body: { content: "x".repeat(2001) } }) as Promise<
      unknown
    >).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof DiscordAPIError);
  assert.deepEqual([err.status, err.rawError], [400, {
    message: "Invalid Form Body",
    code: 50035,
    errors: {
      content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] },
    },
  }]);
  await rest.post(Routes.channelMessages(dm.id), { body: { content: "x".repeat(2000) } });
  assert.deepEqual(discord.messages(dm).map((m) => m.content.length), [2000]);
});

Deno.test("REST obeys the rate-limit headers: a burst over the bucket waits for its reset, no violation", async () => {
  await using discord = await serveFakeDiscord({ rateLimit: { limit: 2, windowMs: 300 } });
  using rest = restOf(discord);
  const dm = discord.dm(discord.user("ada"));
  const sends = [1, 2, 3, 4, 5].map((n) =>
    rest.post(Routes.channelMessages(dm.id), { body: { content: `${n}` } })
  );
  await Promise.all(sends);
  assert.deepEqual(discord.messages(dm).map((m) => m.content), ["1", "2", "3", "4", "5"]);
  assert.deepEqual(discord.calls.map((c) => c.answer?.status), [200, 200, 200, 200, 200]);
  assert.deepEqual(discord.rateLimitViolations, []);
});

Deno.test("every answer carries X-RateLimit headers; a request into an empty bucket is a violation", async () => {
  await using discord = await serveFakeDiscord({ rateLimit: { limit: 1, windowMs: 5_000 } });
  const dm = discord.dm(discord.user("ada"));
  const post = () =>
    fetch(`${discord.apiUrl}/v10/channels/${dm.id}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${discord.token}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "hi" }),
    });
  const first = await post();
  await first.body?.cancel();
  const headers = Object.fromEntries([...first.headers].filter(([k]) => k.startsWith("x-ratelimit")));
  assert.deepEqual(Object.keys(headers).sort(), [
    "x-ratelimit-bucket",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-ratelimit-reset-after",
  ]);
  assert.deepEqual([headers["x-ratelimit-limit"], headers["x-ratelimit-remaining"]], ["1", "0"]);
  const second = await post();
  assert.equal(second.status, 429);
  assert.equal(second.headers.get("retry-after"), "5");
  const body = await second.json();
  assert.deepEqual({ ...body, retry_after: undefined }, {
    message: "You are being rate limited.",
    retry_after: undefined,
    global: false,
  });
  assert.ok(body.retry_after > 4 && body.retry_after <= 5, `retry_after ${body.retry_after}`);
  assert.deepEqual(discord.rateLimitViolations.map((v) => [v.route, v.bucket]), [
    ["POST /channels/:id/messages", headers["x-ratelimit-bucket"]],
  ]);
  assert.deepEqual(discord.calls.map((c) => c.violation), [false, true]);
});

Deno.test("REST waits out an injected 429 and a global 429, and retries a 502", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  const dm = discord.dm(discord.user("ada"));
  discord.failNext("POST /channels/:id/messages", { rateLimited: 0.2 });
  await rest.post(Routes.channelMessages(dm.id), { body: { content: "after a 429" } });
  discord.failNext("POST /channels/:id/messages", { rateLimited: 0.2, global: true });
  await rest.post(Routes.channelMessages(dm.id), { body: { content: "after a global 429" } });
  discord.failNext("PATCH /channels/:id/messages/:mid", { status: 502 });
  const [first] = discord.messages(dm);
  await rest.patch(Routes.channelMessage(dm.id, first!.id), { body: { content: "edited after a 502" } });
  assert.deepEqual(discord.calls.map((c) => [c.route, c.answer?.status]), [
    ["POST /channels/:id/messages", 429],
    ["POST /channels/:id/messages", 200],
    ["POST /channels/:id/messages", 429],
    ["POST /channels/:id/messages", 200],
    ["PATCH /channels/:id/messages/:mid", 502],
    ["PATCH /channels/:id/messages/:mid", 200],
  ]);
  assert.deepEqual(discord.calls[0]?.answer?.body, {
    message: "You are being rate limited.",
    retry_after: 0.2,
    global: false,
  });
  assert.deepEqual(discord.messages(dm).map((m) => m.content), ["edited after a 502", "after a global 429"]);
  assert.deepEqual(discord.rateLimitViolations, []);
});

Deno.test("POST channels/:id/messages with enforce_nonce answers the message made with that nonce again, making none; a nonce past 25 characters is 50035", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  const dm = discord.dm(discord.user("ada"));
  const post = (body: Record<string, unknown>) =>
    rest.post(Routes.channelMessages(dm.id), { body }) as Promise<APIMessage>;
  const first = await post({ content: "Hello.", nonce: "1234-0", enforce_nonce: true });
  const again = await post({ content: "Hello again.", nonce: "1234-0", enforce_nonce: true });
  assert.deepEqual([again.id, again.content, again.nonce], [first.id, "Hello.", "1234-0"]);
  const unenforced = await post({ content: "Hello.", nonce: "1234-0" });
  assert.notEqual(unenforced.id, first.id);
  assert.deepEqual(discord.messages(dm).map((m) => m.id), [first.id, unenforced.id]);
  await assert.rejects(post({ content: "x", nonce: "n".repeat(26), enforce_nonce: true }), {
    status: 400,
    code: 50035,
  });
});
