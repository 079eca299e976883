import { type DiscordChannel, type FakeDiscord, serveFakeDiscord } from "./fake_discord.ts";
import assert from "node:assert/strict";
import { DiscordAPIError, REST } from "@discordjs/rest";
import { type SessionInfo, WebSocketManager, WebSocketShardEvents } from "@discordjs/ws";
import {
  type APIMessage,
  type APIUser,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
  GatewayIntentBits,
  Routes,
} from "discord-api-types/v10";

const INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages |
  GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;

/** The official REST client on the fake, with no sweeper timers left running. */
function restOf(discord: FakeDiscord, token = discord.token): REST & Disposable {
  const rest = new REST({ api: discord.apiUrl, version: "10", hashSweepInterval: 0, handlerSweepInterval: 0 })
    .setToken(token);
  return Object.assign(rest, { [Symbol.dispose]() {} });
}

/** A WebSocketManager on the fake, connected; dispatches land in `next()`, its own session store. */
async function gatewayOf(discord: FakeDiscord, options: { intents?: number } = {}) {
  const rest = restOf(discord);
  let session: SessionInfo | null = null;
  const manager = new WebSocketManager({
    token: discord.token,
    intents: options.intents ?? INTENTS,
    rest,
    retrieveSessionInfo: () => session,
    updateSessionInfo: (_shard, info) => {
      session = info;
    },
  });
  const dispatches: GatewayDispatchPayload[] = [];
  let wake: (() => void) | undefined;
  manager.on(WebSocketShardEvents.Dispatch, (payload) => {
    dispatches.push(payload);
    wake?.();
  });
  /** The next dispatch of type `t` (others before it skipped). */
  const next = async <T extends GatewayDispatchPayload["t"]>(t: T) => {
    for (;;) {
      const index = dispatches.findIndex((d) => d.t === t);
      if (index >= 0) {
        return dispatches.splice(0, index + 1).at(-1) as Extract<GatewayDispatchPayload, { t: T }>;
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      wake = resolve;
      await promise;
    }
  };
  await manager.connect();
  return {
    manager,
    next,
    dispatches,
    session: () => session,
    async [Symbol.asyncDispose]() {
      await manager.destroy();
    },
  };
}

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

Deno.test("WebSocketManager connects: HELLO, IDENTIFY with token and intents, READY, GUILD_CREATE", async () => {
  await using discord = await serveFakeDiscord();
  const guild = discord.guild("Link Guild");
  const general = discord.channel(guild, "general");
  await using gateway = await gatewayOf(discord);
  const ready = await gateway.next(GatewayDispatchEvents.Ready);
  assert.equal(ready.s, 1);
  assert.deepEqual(ready.d.user, { ...discord.bot, flags: 0, mfa_enabled: false, verified: true });
  assert.deepEqual(ready.d.guilds, [{ id: guild.id, unavailable: true }]);
  assert.equal(ready.d.resume_gateway_url, discord.gatewayUrl);
  assert.deepEqual(discord.identifies.map((i) => [i.token, i.intents, i.session_id]), [
    [discord.token, INTENTS, ready.d.session_id],
  ]);
  const created = await gateway.next(GatewayDispatchEvents.GuildCreate);
  assert.equal(created.s, 2);
  assert.deepEqual(created.d.channels.map((c) => [c.id, c.name, c.type]), [[general.id, "general", 0]]);
  assert.deepEqual(discord.sockets, { open: 1, ever: 1, mostAtOnce: 1 });
  assert.equal(gateway.session()?.sessionId, ready.d.session_id);
});

Deno.test("heartbeats carry the last seq and are ACKed", async () => {
  await using discord = await serveFakeDiscord({ heartbeatIntervalMs: 50 });
  await using gateway = await gatewayOf(discord);
  const beat = Promise.withResolvers<void>();
  gateway.manager.on(WebSocketShardEvents.HeartbeatComplete, () => beat.resolve());
  await beat.promise;
  await discord.when(() => discord.heartbeats.length >= 2);
  const [first] = discord.heartbeats;
  assert.deepEqual([first?.socket, first?.acked], [1, true]);
  assert.ok(first?.seq === null || (first?.seq ?? 0) >= 1, `seq ${first?.seq}`);
});

Deno.test("userSays in a DM is a MESSAGE_CREATE with no guild_id; in a channel with guild_id and mentions", async () => {
  await using discord = await serveFakeDiscord();
  const guild = discord.guild("Link Guild");
  const general = discord.channel(guild, "general");
  const ada = discord.user("ada");
  await using gateway = await gatewayOf(discord);
  const dm = discord.dm(ada);
  assert.deepEqual(dm, discord.dm(ada), "the same DM each time");
  const said = discord.userSays(dm, ada, "hello");
  const got = await gateway.next(GatewayDispatchEvents.MessageCreate);
  assert.deepEqual(got.d, said);
  assert.deepEqual([got.d.channel_id, got.d.content, got.d.author.id, "guild_id" in got.d], [
    dm.id,
    "hello",
    ada.id,
    false,
  ]);
  const other = discord.user("robo", { bot: true });
  const mention = discord.userSays(general, other, "ping", { mentionBot: true });
  const inGuild = await gateway.next(GatewayDispatchEvents.MessageCreate);
  assert.equal(inGuild.d.guild_id, guild.id);
  assert.equal(inGuild.d.content, `<@${discord.bot.id}> ping`);
  assert.deepEqual(inGuild.d.mentions.map((u) => u.id), [discord.bot.id]);
  assert.equal(inGuild.d.author.bot, true);
  assert.equal(inGuild.d.id, mention.id);
  assert.ok(BigInt(mention.id) > BigInt(said.id), "snowflakes increase");
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
