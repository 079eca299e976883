import { type FakeSlack, serveFakeSlack, type SlackEnvelope } from "./fake_slack.ts";
import assert from "node:assert/strict";
import { LogLevel, SocketModeClient } from "@slack/socket-mode";
import { WebClient } from "@slack/web-api";
import { FakeClock } from "../support/fake_clock.ts";

interface Received {
  envelope_id: string;
  type: string;
  body: Record<string, unknown>;
  retry_num: number;
  retry_reason: string;
  ack: () => Promise<void>;
}

/** A SocketModeClient on the fake, started; what reaches it as slack_event lands in `events`. */
async function socketClient(slack: FakeSlack, options: { clientPingTimeout?: number } = {}) {
  const client = new SocketModeClient({
    appToken: slack.appToken,
    clientOptions: { slackApiUrl: slack.apiUrl },
    logLevel: LogLevel.ERROR,
    clientPingTimeout: options.clientPingTimeout ?? 5_000,
  });
  const events: Received[] = [];
  let wake: (() => void) | undefined;
  client.on("slack_event", (e: Received) => {
    events.push(e);
    wake?.();
  });
  const next = async (): Promise<Received> => {
    while (events.length === 0) {
      const { promise, resolve } = Promise.withResolvers<void>();
      wake = resolve;
      await promise;
    }
    return events.shift()!;
  };
  await client.start();
  return {
    client,
    next,
    async [Symbol.asyncDispose]() {
      await client.disconnect();
    },
  };
}

Deno.test("auth.test answers the bot's team, user and bot ids to the WebClient", async () => {
  await using slack = await serveFakeSlack();
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const result = await web.auth.test();
  assert.deepEqual({ ...result, response_metadata: undefined }, {
    ok: true,
    url: "https://link-test.slack.com/",
    team: "Link Test",
    user: "link_test",
    team_id: "T0LINKTEAM",
    user_id: "U0LINKBOT1",
    bot_id: "B0LINKBOT1",
    is_enterprise_install: false,
    response_metadata: undefined,
  });
  assert.deepEqual(slack.calls.map((c) => [c.method, c.token]), [["auth.test", slack.botToken]]);
});

Deno.test("a hello, then an event delivered in an envelope and acked", async () => {
  await using slack = await serveFakeSlack();
  await using socket = await socketClient(slack);
  assert.deepEqual(slack.sockets, { open: 1, ever: 1, mostAtOnce: 1 });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const said = slack.userSays(dm, ada, "hello");
  const got = await socket.next();
  assert.equal(got.type, "events_api");
  assert.equal(got.retry_num, 0);
  assert.equal(got.retry_reason, "");
  assert.deepEqual(got.body.event, {
    client_msg_id: said.client_msg_id,
    type: "message",
    text: "hello",
    user: ada.id,
    ts: said.ts,
    team: "T0LINKTEAM",
    channel: dm.id,
    event_ts: said.ts,
    channel_type: "im",
  });
  assert.match(String(got.body.event_id), /^Ev/);
  await got.ack();
  await slack.acked(got.envelope_id);
  assert.deepEqual(slack.acks.map((a) => [a.envelope_id, a.payload, a.socket]), [[got.envelope_id, {}, 1]]);
});

Deno.test("an envelope not acked within 3 s is sent again with retry_attempt, up to 3 times", async () => {
  const clock = new FakeClock();
  await using slack = await serveFakeSlack({ clock });
  await using socket = await socketClient(slack);
  const ada = slack.user("ada");
  slack.userSays(slack.dm(ada), ada, "anyone?");
  const first = await socket.next();
  const seen: [number, string][] = [[first.retry_num, first.retry_reason]];
  for (let i = 1; i <= 3; i++) {
    await clock.advance(3_000);
    const again = await socket.next();
    assert.equal(again.envelope_id, first.envelope_id);
    assert.equal(again.body.event_id, first.body.event_id);
    seen.push([again.retry_num, again.retry_reason]);
  }
  assert.deepEqual(seen, [[0, ""], [1, "timeout"], [2, "timeout"], [3, "timeout"]]);
  await clock.advance(3_000);
  await slack.givenUpCount(1);
  assert.deepEqual(slack.givenUp.map((e: SlackEnvelope) => e.envelope_id), [first.envelope_id]);
});

async function platformError(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(() => undefined, (e: unknown) => e) as
    | { code?: string; data?: { ok: boolean; error: string } }
    | undefined;
  assert.equal(err?.code, "slack_webapi_platform_error", `expected a platform error, got ${err}`);
  assert.equal(err.data?.ok, false);
  return err.data!.error;
}

Deno.test("chat.postMessage returns ts and channel; chat.update edits it; messages() reads it now", async () => {
  await using slack = await serveFakeSlack({ echoBotMessages: false });
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const posted = await web.chat.postMessage({ channel: dm.id, text: "Thinking…" });
  assert.equal(posted.channel, dm.id);
  assert.match(String(posted.ts), /^\d+\.\d{6}$/);
  const call = await slack.nextCall("chat.postMessage");
  assert.deepEqual(call.params, { channel: dm.id, text: "Thinking…" });
  const updated = await web.chat.update({ channel: dm.id, ts: posted.ts!, text: "Hello Ada" });
  assert.deepEqual([updated.channel, updated.ts, updated.text], [dm.id, posted.ts, "Hello Ada"]);
  const [message] = slack.messages(dm);
  assert.deepEqual({ ...message, edited: undefined }, {
    user: "U0LINKBOT1",
    type: "message",
    ts: posted.ts,
    bot_id: "B0LINKBOT1",
    app_id: "A0LINKAPP1",
    text: "Hello Ada",
    team: "T0LINKTEAM",
    edited: undefined,
  });
  assert.equal(message!.edited?.user, "U0LINKBOT1");
  const byUser = await web.chat.postMessage({ channel: ada.id, text: "to the user id" });
  assert.equal(byUser.channel, dm.id, "a user id posts in their DM");
});

Deno.test("chat.update refuses a message not there or not the bot's", async () => {
  await using slack = await serveFakeSlack({ echoBotMessages: false });
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const said = slack.userSays(dm, ada, "mine");
  assert.equal(
    await platformError(web.chat.update({ channel: dm.id, ts: "1.000001", text: "x" })),
    "message_not_found",
  );
  assert.equal(
    await platformError(web.chat.update({ channel: dm.id, ts: said.ts, text: "x" })),
    "cant_update_message",
  );
  assert.equal(
    await platformError(web.chat.postMessage({ channel: "C0NOPE", text: "x" })),
    "channel_not_found",
  );
  assert.equal(await platformError(web.chat.postMessage({ channel: dm.id, text: "" })), "no_text");
  assert.deepEqual(slack.messages(dm).map((m) => m.text), ["mine"]);
});

Deno.test("reactions.add and reactions.remove, already_reacted and no_reaction", async () => {
  await using slack = await serveFakeSlack();
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const said = slack.userSays(dm, ada, "hi");
  const on = { channel: dm.id, timestamp: said.ts, name: "eyes" };
  await web.reactions.add(on);
  assert.deepEqual(slack.reactions(dm, said.ts), [{ name: "eyes", users: ["U0LINKBOT1"], count: 1 }]);
  assert.equal(await platformError(web.reactions.add(on)), "already_reacted");
  await web.reactions.remove(on);
  assert.deepEqual(slack.reactions(dm, said.ts), []);
  assert.equal(await platformError(web.reactions.remove(on)), "no_reaction");
  assert.equal(
    await platformError(web.reactions.add({ ...on, timestamp: "1.000009" })),
    "message_not_found",
  );
});

Deno.test("auth.test says invalid_auth, not_authed, token_revoked and account_inactive", async () => {
  await using slack = await serveFakeSlack();
  const test = (token?: string) => new WebClient(token, { slackApiUrl: slack.apiUrl }).auth.test();
  assert.equal(await platformError(test("xoxb-1-2-nope")), "invalid_auth");
  assert.equal(await platformError(test()), "not_authed");
  const revoked = slack.addToken("bot");
  slack.revoke(revoked);
  assert.equal(await platformError(test(revoked)), "token_revoked");
  const inactive = slack.addToken("bot");
  slack.revoke(inactive, "account_inactive");
  assert.equal(await platformError(test(inactive)), "account_inactive");
  assert.equal(await platformError(test(slack.appToken)), "not_allowed_token_type");
});

Deno.test("apps.connections.open takes an app token only and gives a one-use ws url", async () => {
  await using slack = await serveFakeSlack();
  const app = new WebClient(slack.appToken, { slackApiUrl: slack.apiUrl });
  const opened = await app.apps.connections.open();
  const url = new URL(opened.url!);
  assert.deepEqual([url.protocol, url.hostname, url.pathname], ["ws:", "127.0.0.1", "/link/"]);
  assert.ok(url.searchParams.get("ticket"));
  const bot = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl });
  assert.equal(await platformError(bot.apps.connections.open()), "not_allowed_token_type");
});

Deno.test("a disconnect frame: the client goes, reconnects with a new url and gets a hello, one socket at a time", async () => {
  await using slack = await serveFakeSlack();
  await using socket = await socketClient(slack, { clientPingTimeout: 2_000 });
  const reconnected = Promise.withResolvers<void>();
  socket.client.on("connected", () => reconnected.resolve());
  assert.equal(slack.sendDisconnect("refresh_requested"), 1);
  await reconnected.promise;
  await slack.socketsWhen((s) => s.open === 1 && s.ever === 2);
  assert.deepEqual(slack.sockets, { open: 1, ever: 2, mostAtOnce: 1 });
  assert.deepEqual(slack.calls.map((c) => c.method), ["apps.connections.open", "apps.connections.open"]);
  const ada = slack.user("ada");
  slack.userSays(slack.dm(ada), ada, "still there?");
  const got = await socket.next();
  await got.ack();
  await slack.acked(got.envelope_id);
  assert.deepEqual(slack.acks.map((a) => a.socket), [2]);
});

Deno.test("an envelope unacked when its socket drops is sent again on the next connection", async () => {
  const clock = new FakeClock();
  await using slack = await serveFakeSlack({ clock });
  await using socket = await socketClient(slack, { clientPingTimeout: 2_000 });
  const ada = slack.user("ada");
  slack.userSays(slack.dm(ada), ada, "lost?");
  const first = await socket.next();
  assert.equal(slack.dropSockets(), 1);
  await slack.socketsWhen((s) => s.open === 0);
  await clock.advance(3_000);
  const again = await socket.next();
  assert.deepEqual([again.envelope_id, again.retry_num, again.retry_reason], [
    first.envelope_id,
    1,
    "timeout",
  ]);
  await again.ack();
  await slack.acked(again.envelope_id);
  assert.deepEqual(slack.acks.map((a) => [a.envelope_id, a.socket]), [[first.envelope_id, 2]]);
  assert.deepEqual(slack.sockets, { open: 1, ever: 2, mostAtOnce: 1 });
});

Deno.test("a second client at once is recorded in sockets.mostAtOnce", async () => {
  await using slack = await serveFakeSlack();
  await using _one = await socketClient(slack);
  await using _two = await socketClient(slack);
  assert.deepEqual(slack.sockets, { open: 2, ever: 2, mostAtOnce: 2 });
});

Deno.test("a 429 with Retry-After: the WebClient waits and retries, or reports it when told to", async () => {
  await using slack = await serveFakeSlack({ echoBotMessages: false });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  slack.failNext("chat.postMessage", { rateLimited: 0 });
  const posted = await web.chat.postMessage({ channel: dm.id, text: "after the limit" });
  assert.deepEqual(
    slack.calls.map((c) => [c.method, c.answer?.status]),
    [["chat.postMessage", 429], ["chat.postMessage", 200]],
  );
  assert.deepEqual(slack.calls[0]!.answer?.body, { ok: false, error: "ratelimited" });
  assert.deepEqual(slack.messages(dm).map((m) => [m.ts, m.text]), [[posted.ts, "after the limit"]]);

  const strict = new WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    logLevel: LogLevel.ERROR,
    rejectRateLimitedCalls: true,
  });
  slack.failNext("chat.update", { rateLimited: 30 });
  await assert.rejects(strict.chat.update({ channel: dm.id, ts: posted.ts!, text: "x" }), {
    code: "slack_webapi_rate_limited_error",
    retryAfter: 30,
  });
});

Deno.test("a 5xx fault reaches the WebClient as an HTTP error", async () => {
  await using slack = await serveFakeSlack();
  const web = new WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    logLevel: LogLevel.ERROR,
    retryConfig: { retries: 0 },
  });
  slack.failNext("auth.test", { status: 503, body: "upstream down" });
  await assert.rejects(web.auth.test(), { code: "slack_webapi_http_error", statusCode: 503 });
});

Deno.test("in a channel a mention of the bot is a message and an app_mention; edits and deletes are subtypes", async () => {
  await using slack = await serveFakeSlack();
  await using socket = await socketClient(slack);
  const ada = slack.user("ada");
  const general = slack.channel("general", [ada]);
  const said = slack.userSays(general, ada, "<@U0LINKBOT1> hi");
  const kinds: unknown[] = [];
  for (let i = 0; i < 2; i++) {
    const got = await socket.next();
    const event = got.body.event as Record<string, unknown>;
    kinds.push([event.type, event.channel_type, event.channel, event.ts]);
    await got.ack();
  }
  assert.deepEqual(kinds, [
    ["message", "channel", general.id, said.ts],
    ["app_mention", undefined, general.id, said.ts],
  ]);
  slack.userEdits(general, said, "<@U0LINKBOT1> hello");
  const changed = (await socket.next()).body.event as Record<string, unknown>;
  assert.deepEqual(
    [
      changed.subtype,
      (changed.message as { text: string }).text,
      (changed.previous_message as { text: string }).text,
    ],
    ["message_changed", "<@U0LINKBOT1> hello", "<@U0LINKBOT1> hi"],
  );
  slack.userDeletes(general, said);
  const deleted = (await socket.next()).body.event as Record<string, unknown>;
  assert.deepEqual([deleted.subtype, deleted.deleted_ts, deleted.hidden], ["message_deleted", said.ts, true]);
  assert.deepEqual(slack.messages(general), []);
});

Deno.test("the app hears its own post as a message with bot_id, and its update as message_changed", async () => {
  await using slack = await serveFakeSlack();
  await using socket = await socketClient(slack);
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const ada = slack.user("ada");
  const dm = slack.dm(ada);
  const posted = await web.chat.postMessage({ channel: dm.id, text: "one" });
  const echo = (await socket.next()).body.event as Record<string, unknown>;
  assert.deepEqual([echo.type, echo.bot_id, echo.user, echo.ts, echo.channel_type], [
    "message",
    "B0LINKBOT1",
    "U0LINKBOT1",
    posted.ts,
    "im",
  ]);
  await web.chat.update({ channel: dm.id, ts: posted.ts!, text: "two" });
  const changed = (await socket.next()).body.event as Record<string, unknown>;
  assert.deepEqual([changed.subtype, (changed.message as { text: string }).text], ["message_changed", "two"]);
});

Deno.test("conversations.open gives the user's DM id; users.info the user; text past 40,000 is cut", async () => {
  await using slack = await serveFakeSlack({ echoBotMessages: false });
  const web = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, logLevel: LogLevel.ERROR });
  const ada = slack.user("ada");
  const opened = await web.conversations.open({ users: ada.id });
  assert.match(String(opened.channel?.id), /^D/);
  assert.equal(opened.channel?.id, slack.dm(ada).id);
  const info = await web.users.info({ user: ada.id });
  assert.deepEqual(info.user, ada);
  assert.equal(await platformError(web.users.info({ user: "U0NOPE" })), "user_not_found");
  await web.chat.postMessage({ channel: ada.id, text: "x".repeat(40_001) });
  assert.equal(slack.messages(slack.dm(ada))[0]!.text.length, 40_000);
});
