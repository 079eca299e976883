import assert from "node:assert/strict";
import { WebSocketShardEvents } from "@discordjs/ws";
import { type APIMessage, GatewayDispatchEvents, GatewayIntentBits, Routes } from "discord-api-types/v10";
import { serveFakeDiscord } from "./fake_discord.ts";
import { gatewayOf, INTENTS, restOf } from "./_discord_support.ts";

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

Deno.test("a socket closed with 4000 is resumed and the event missed meanwhile replayed, no second IDENTIFY", async () => {
  await using discord = await serveFakeDiscord();
  const ada = discord.user("ada");
  const dm = discord.dm(ada);
  await using gateway = await gatewayOf(discord);
  const sessionId = gateway.session()!.sessionId;
  assert.equal(discord.closeSockets(4000, "Unknown error."), 1);
  const missed = discord.userSays(dm, ada, "said while you were away");
  const got = await gateway.next(GatewayDispatchEvents.MessageCreate);
  assert.deepEqual(got.d, missed);
  await discord.when(() => discord.resumes.length === 1);
  assert.deepEqual(discord.resumes.map((r) => [r.socket, r.session_id, r.resumed, r.replayed]), [
    [2, sessionId, true, 1],
  ]);
  assert.deepEqual(discord.closes, [{ socket: 1, code: 4000, by: "fake" }]);
  assert.equal(discord.identifies.length, 1);
  assert.deepEqual(discord.sockets, { open: 1, ever: 2, mostAtOnce: 1 });
  const after = discord.userSays(dm, ada, "and now");
  assert.equal((await gateway.next(GatewayDispatchEvents.MessageCreate)).d.id, after.id);
});

Deno.test("a dropped network ends the socket with no close frame: Deno's client identifies afresh, missing what was sent meanwhile", async () => {
  await using discord = await serveFakeDiscord();
  const ada = discord.user("ada");
  const dm = discord.dm(ada);
  await using gateway = await gatewayOf(discord);
  const first = (await gateway.next(GatewayDispatchEvents.Ready)).d.session_id;
  assert.equal(discord.dropSockets(), 1);
  const missed = discord.userSays(dm, ada, "lost in the drop");
  const ready = await gateway.next(GatewayDispatchEvents.Ready);
  await discord.when(() => discord.closes.length === 1);
  // Deno's WebSocket reports an abrupt end as an error with code 0, so @discordjs/ws reconnects
  // with a new session instead of resuming: the old one keeps the missed event, unreplayed.
  assert.deepEqual(discord.closes, [{ socket: 1, code: 0, by: "network" }]);
  assert.deepEqual(discord.resumes, []);
  assert.deepEqual(discord.identifies.map((i) => i.session_id), [first, ready.d.session_id]);
  const after = discord.userSays(dm, ada, "after the drop");
  const got = await gateway.next(GatewayDispatchEvents.MessageCreate);
  assert.equal(got.d.id, after.id);
  assert.notEqual(got.d.id, missed.id);
  // What a connection can do then: read the channel's history after the last message it had.
  using rest = restOf(discord);
  const history = await rest.get(Routes.channelMessages(dm.id), {
    query: new URLSearchParams({ after: "0", limit: "10" }),
  }) as APIMessage[];
  assert.deepEqual(history.map((m) => m.content), ["after the drop", "lost in the drop"]);
});

Deno.test("op 7 RECONNECT: the client closes with 4200 and resumes its session", async () => {
  await using discord = await serveFakeDiscord();
  await using gateway = await gatewayOf(discord);
  const resumed = Promise.withResolvers<void>();
  gateway.manager.on(WebSocketShardEvents.Resumed, () => resumed.resolve());
  assert.equal(discord.sendReconnect(), 1);
  await resumed.promise;
  assert.deepEqual(discord.closes, [{ socket: 1, code: 4200, by: "client" }]);
  assert.deepEqual(discord.resumes.map((r) => [r.resumed, r.replayed]), [[true, 0]]);
  assert.equal(discord.identifies.length, 1);
});

Deno.test("INVALID_SESSION (d=false) makes the client IDENTIFY afresh; a RESUME of an ended session too", async () => {
  await using discord = await serveFakeDiscord();
  const ada = discord.user("ada");
  await using gateway = await gatewayOf(discord);
  const first = (await gateway.next(GatewayDispatchEvents.Ready)).d.session_id;
  assert.equal(discord.invalidateSession(false), 1);
  const second = await gateway.next(GatewayDispatchEvents.Ready);
  assert.notEqual(second.d.session_id, first);
  assert.deepEqual(discord.identifies.map((i) => i.session_id), [first, second.d.session_id]);
  discord.expireSessions();
  discord.closeSockets(4000, "Unknown error.");
  const third = await gateway.next(GatewayDispatchEvents.Ready);
  assert.deepEqual(discord.resumes.map((r) => [r.session_id, r.resumed]), [[second.d.session_id, false]]);
  assert.equal(discord.identifies.length, 3);
  const said = discord.userSays(discord.dm(ada), ada, "still there?");
  assert.equal((await gateway.next(GatewayDispatchEvents.MessageCreate)).d.id, said.id);
  assert.equal(third.s, 1, "a new session counts from 1");
});

Deno.test("heartbeats left unACKed: the client notices the zombie connection and resumes", async () => {
  await using discord = await serveFakeDiscord({ heartbeatIntervalMs: 100 });
  await using gateway = await gatewayOf(discord);
  const resumed = Promise.withResolvers<void>();
  gateway.manager.on(WebSocketShardEvents.Resumed, () => resumed.resolve());
  await discord.when(() => discord.heartbeats.length >= 1);
  assert.equal(discord.stopAcking(), 1);
  await resumed.promise;
  assert.deepEqual(discord.closes, [{ socket: 1, code: 4200, by: "client" }]);
  const unacked = discord.heartbeats.filter((h) => h.socket === 1 && !h.acked);
  assert.ok(unacked.length >= 1, "a heartbeat went unacked before the client gave up");
  await discord.when(() => discord.heartbeats.some((h) => h.socket === 2 && h.acked));
  assert.deepEqual(discord.resumes.map((r) => [r.socket, r.resumed]), [[2, true]]);
});

Deno.test("a revoked token closes the socket with 4004 and the client stops", async () => {
  await using discord = await serveFakeDiscord();
  await using gateway = await gatewayOf(discord);
  const failed = Promise.withResolvers<Error>();
  gateway.manager.on(WebSocketShardEvents.Error, (err) => failed.resolve(err));
  discord.revoke(discord.token);
  assert.equal((await failed.promise).message, "Authentication failed");
  await discord.when(() => discord.sockets.open === 0);
  assert.deepEqual(discord.closes, [{ socket: 1, code: 4004, by: "fake" }]);
  assert.deepEqual(discord.sessions.map((s) => s.live), [false]);
});

Deno.test("MESSAGE_UPDATE and MESSAGE_DELETE follow the user's edit and delete", async () => {
  await using discord = await serveFakeDiscord();
  const guild = discord.guild("Link Guild");
  const general = discord.channel(guild, "general");
  const ada = discord.user("ada");
  await using gateway = await gatewayOf(discord);
  const said = discord.userSays(general, ada, "helo");
  await gateway.next(GatewayDispatchEvents.MessageCreate);
  const edited = discord.edit(said, "hello");
  const update = await gateway.next(GatewayDispatchEvents.MessageUpdate);
  assert.deepEqual([update.d.id, update.d.content, update.d.guild_id], [said.id, "hello", guild.id]);
  assert.equal(update.d.edited_timestamp, edited.edited_timestamp);
  discord.delete(said);
  const deleted = await gateway.next(GatewayDispatchEvents.MessageDelete);
  assert.deepEqual(deleted.d, { id: said.id, channel_id: general.id, guild_id: guild.id });
  assert.deepEqual(discord.messages(general), []);
});

Deno.test("without the MESSAGE_CONTENT intent a guild message reads empty unless it mentions the bot", async () => {
  await using discord = await serveFakeDiscord();
  const general = discord.channel(discord.guild("Link Guild"), "general");
  const ada = discord.user("ada");
  await using gateway = await gatewayOf(discord, { intents: INTENTS & ~GatewayIntentBits.MessageContent });
  discord.userSays(general, ada, "not for you");
  discord.userSays(general, ada, "for you", { mentionBot: true });
  discord.userSays(discord.dm(ada), ada, "a DM");
  const contents = [];
  for (let i = 0; i < 3; i++) {
    contents.push((await gateway.next(GatewayDispatchEvents.MessageCreate)).d.content);
  }
  assert.deepEqual(contents, ["", `<@${discord.bot.id}> for you`, "a DM"]);
});

Deno.test("the bot hears its own messages as MESSAGE_CREATE with author.bot", async () => {
  await using discord = await serveFakeDiscord();
  using rest = restOf(discord);
  const dm = discord.dm(discord.user("ada"));
  await using gateway = await gatewayOf(discord);
  const sent = await rest.post(Routes.channelMessages(dm.id), { body: { content: "mine" } }) as APIMessage;
  const heard = await gateway.next(GatewayDispatchEvents.MessageCreate);
  assert.deepEqual([heard.d.id, heard.d.author.id, heard.d.author.bot], [sent.id, discord.bot.id, true]);
});

Deno.test("the Gateway refuses zlib-stream compression", async () => {
  await using discord = await serveFakeDiscord();
  const ws = new WebSocket(`${discord.gatewayUrl}?v=10&encoding=json&compress=zlib-stream`);
  const closed = Promise.withResolvers<boolean>();
  let failed = false;
  ws.onerror = () => failed = true;
  ws.onopen = () => closed.resolve(false);
  ws.onclose = () => closed.resolve(failed);
  assert.equal(await closed.promise, true, "the handshake fails");
  assert.deepEqual(discord.sockets, { open: 0, ever: 0, mostAtOnce: 0 });
});
