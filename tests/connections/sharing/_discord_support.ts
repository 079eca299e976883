import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import { carryDiscord, pairDiscordShare } from "../../../connections/discord/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { type DiscordChannel, serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";
import type { SharingDriver, Where, Who } from "./_contract_support.ts";

/**
 * The sharing contract's driver for Discord: a fake guild with two channels, @discordjs/ws and
 * @discordjs/rest. Discord delivers nothing sent while no bot is connected, so what a person says
 * waits for a live gateway session, as a person reads the code before they type it.
 */
export async function discordDriver(): Promise<SharingDriver> {
  const fake = await serveFakeDiscord({
    rateLimit: { limit: 100_000, windowMs: 1000 },
    echoBotMessages: true,
  });
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-share-discord-" });
  const clock = new FakeClock();
  const people = {
    owner: fake.user("ada"),
    member: fake.user("bob"),
    stranger: fake.user("eve"),
    bot: fake.user("robo", { bot: true }),
  };
  const guild = fake.guild("home");
  const chats = { group: fake.channel(guild, "family"), other: fake.channel(guild, "work") };
  const account = { apiUrl: fake.apiUrl, token: new Secret(fake.token) };
  const stop = new AbortController();
  let carrying: Promise<void> | undefined;
  let said = Promise.resolve();
  const live = () => fake.when(() => fake.sessions.some((s) => s.live) && fake.sockets.open > 0);
  const place = (where: Where, who: Who = "owner"): DiscordChannel =>
    where === "dm" ? fake.dm(people[who]) : chats[where];
  const sentIn = (where: Where, who?: Who) =>
    fake.messages(place(where, who)).filter((m) => m.author.id === fake.bot.id).map((m) => m.content);
  return {
    connection: "discord",
    stateDir,
    model,
    harness,
    say(who, where, text, options = {}) {
      const mentionBot = where !== "dm" && options.mention !== false;
      said = said.then(live).then(() =>
        void fake.userSays(place(where, who), people[who], text, { mentionBot })
      );
    },
    async settled() {
      await said;
      // The client heartbeats its last seq when asked: past it, every dispatch has reached it.
      const seq = Math.max(...fake.sessions.filter((s) => s.live).map((s) => s.seq));
      const beats = fake.heartbeats.length;
      fake.requestHeartbeat();
      await fake.when(() => fake.heartbeats.slice(beats).some((h) => (h.seq ?? -1) >= seq));
    },
    share: (options) => pairDiscordShare(account, { ...options, ownerId: people.owner.id, stateDir }),
    chat: (where) => ({ id: `${guild.id}:${chats[where].id}`, title: `#${chats[where].name}` }),
    person: (who) => people[who].id,
    thread: (where, who) => `discord:${place(where, who).id}`,
    async carry(access: ChatAccess) {
      carrying = carryDiscord({
        account,
        stateDir,
        ownerId: people.owner.id,
        access,
        endpoint: { path: harness.socket },
        caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
        clock,
        signal: stop.signal,
      });
      await live();
    },
    sentIn,
    async untilSent(where, who, text) {
      await said;
      for (let i = 0; i < 2000 && sentIn(where, who).at(-1) !== text; i++) await clock.advance(1000);
      assert.equal(sentIn(where, who).at(-1), text);
    },
    async untilHeldSent(where, who, text) {
      const channel = place(where, who).id;
      await fake.nextCall(
        "POST /channels/:id/messages",
        (c) => c.params.id === channel && (c.body as { content?: string }).content === text,
      );
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await carrying;
      await harness[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}
