import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import { carryTelegram, pairTelegramShare } from "../../../connections/telegram/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeTelegram, type TgChat, type TgUser } from "../../fakes/fake_telegram.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";
import type { SharingDriver, Where, Who } from "./_contract_support.ts";

/** The sharing contract's driver for Telegram: a fake Bot API with a group and another, grammY's client. */
export async function telegramDriver(): Promise<SharingDriver> {
  const fake = await serveFakeTelegram();
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-share-tg-" });
  const clock = new FakeClock();
  const people: Record<Who, TgUser> = {
    owner: fake.user("Ada"),
    member: fake.user("Bob"),
    stranger: fake.user("Eve"),
    bot: fake.user("Robo", { is_bot: true, username: "robo_bot" }),
  };
  const chats = {
    group: fake.group("Family", [people.owner, people.member, people.bot]),
    other: fake.group("Work", [people.owner, people.member], { supergroup: true }),
  };
  const account = { apiRoot: fake.apiRoot, token: new Secret(fake.token) };
  const stop = new AbortController();
  let carrying: Promise<void> | undefined;
  const place = (where: Where, who: Who = "owner"): TgChat =>
    where === "dm" ? fake.privateChat(people[who]) : chats[where];
  const sentIn = (where: Where, who?: Who) => fake.sent(place(where, who).id).map((m) => m.text ?? "");
  return {
    connection: "telegram",
    stateDir,
    model,
    harness,
    say(who, where, text, options = {}) {
      const mention = where !== "dm" && options.mention !== false;
      fake.userSays(place(where, who), people[who], mention ? `@${fake.bot.username} ${text}` : text);
    },
    async settled() {
      const last = Math.max(-1, ...fake.pendingUpdates.map((u) => u.update_id));
      await fake.nextCall("getUpdates", (c) => Number(c.params.offset ?? 0) > last);
    },
    share: (options) => pairTelegramShare(account, { ...options, ownerId: people.owner.id, stateDir }),
    chat: (where) => ({ id: String(chats[where].id), title: chats[where].title! }),
    person: (who) => String(people[who].id),
    thread: (where, who) => `telegram:${place(where, who).id}`,
    carry(access: ChatAccess) {
      carrying = carryTelegram({
        account,
        stateDir,
        ownerId: people.owner.id,
        access,
        endpoint: { path: harness.socket },
        caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
        clock,
        signal: stop.signal,
      });
      return Promise.resolve();
    },
    sentIn,
    async untilSent(where, who, text) {
      for (let i = 0; i < 2000 && sentIn(where, who).at(-1) !== text; i++) await clock.advance(1000);
      assert.equal(sentIn(where, who).at(-1), text);
    },
    async untilHeldSent(where, who, text) {
      const chatId = place(where, who).id;
      await fake.nextCall(
        "sendMessage",
        (c) => Number(c.params.chat_id) === chatId && c.params.text === text,
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
