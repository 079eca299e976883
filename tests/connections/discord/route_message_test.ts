import assert from "node:assert/strict";
import { DiscordMessage, type RouteContext, routeMessage } from "../../../connections/discord/mod.ts";

const ctx: RouteContext = {
  botId: "900",
  ownerId: "100",
  access: { chats: new Set(["7:70"]), persons: new Set(["300"]) },
};

function message(fields: Record<string, unknown>): DiscordMessage {
  return DiscordMessage.parse({ id: "1", channel_id: "50", author: { id: "100" }, content: "hi", ...fields });
}

Deno.test("routeMessage() sends the owner's DM to discord:<channel> with no from", () => {
  assert.deepEqual(routeMessage(message({}), ctx), { thread: "discord:50", text: "hi" });
});

Deno.test("routeMessage() sends an admitted person's DM from person:discord:<id>", () => {
  assert.deepEqual(routeMessage(message({ author: { id: "300" } }), ctx), {
    thread: "discord:50",
    from: "person:discord:300",
    text: "hi",
  });
});

Deno.test("routeMessage() sends a member's mention in a shared chat from them, the mention taken out", () => {
  const m = message({
    guild_id: "7",
    channel_id: "70",
    author: { id: "200" },
    content: "<@900> what time is it?",
    mentions: [{ id: "900" }],
  });
  assert.deepEqual(routeMessage(m, ctx), {
    thread: "discord:70",
    from: "person:discord:200",
    chat: "7:70",
    text: "what time is it?",
  });
});

Deno.test("routeMessage() sends a reply to the bot in a shared chat, and the owner's there with no from", () => {
  const m = message({
    guild_id: "7",
    channel_id: "70",
    content: "and tomorrow?",
    referenced_message: { author: { id: "900", bot: true } },
  });
  assert.deepEqual(routeMessage(m, ctx), { thread: "discord:70", chat: "7:70", text: "and tomorrow?" });
});

Deno.test("routeMessage() drops bots, webhooks, strangers' DMs, unshared channels and unaddressed messages", () => {
  const dropped = [
    message({ author: { id: "400", bot: true } }),
    message({ author: { id: "900", bot: true } }),
    message({ webhook_id: "5" }),
    message({ author: { id: "666" } }),
    message({ guild_id: "8", channel_id: "80", content: "<@900> hi", mentions: [{ id: "900" }] }),
    message({ guild_id: "7", channel_id: "70", author: { id: "200" }, content: "chatter" }),
    message({ guild_id: "7", channel_id: "70", author: { id: "200", bot: true }, mentions: [{ id: "900" }] }),
  ].map((m) => routeMessage(m, ctx));
  assert.deepEqual(dropped, [
    { dropped: "a bot wrote it" },
    { dropped: "a bot wrote it" },
    { dropped: "a bot wrote it" },
    { dropped: "a DM from someone not admitted" },
    { dropped: "a channel not shared" },
    { dropped: "a message that neither mentions the bot nor replies to it" },
    { dropped: "a bot wrote it" },
  ]);
});
