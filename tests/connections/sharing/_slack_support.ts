import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import type { ChatAccess } from "../../../core/spec/mod.ts";
import { carrySlack, pairSlackShare } from "../../../connections/slack/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import {
  BOT_ID,
  BOT_USER_ID,
  serveFakeSlack,
  type SlackConversation,
  type SlackUser,
  TEAM_ID,
} from "../../fakes/fake_slack.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";
import type { SharingDriver, Where, Who } from "./_contract_support.ts";

/** The sharing contract's driver for Slack: a fake workspace with two channels, Slack's clients. */
export async function slackDriver(): Promise<SharingDriver> {
  const fake = await serveFakeSlack({ clock: new FakeClock() });
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-share-slack-" });
  const clock = new FakeClock();
  const people: Record<Exclude<Who, "bot">, SlackUser> = {
    owner: fake.user("ada"),
    member: fake.user("bob"),
    stranger: fake.user("eve"),
  };
  const chats = {
    group: fake.channel("family", [people.owner, people.member]),
    other: fake.channel("work", [people.owner, people.member]),
  };
  const account = {
    apiUrl: fake.apiUrl,
    botToken: new Secret(fake.botToken),
    appToken: new Secret(fake.appToken),
  };
  const stop = new AbortController();
  let carrying: Promise<void> | undefined;
  const place = (where: Where, who: Who = "owner"): SlackConversation =>
    where === "dm" ? fake.dm(people[who === "bot" ? "owner" : who]) : chats[where];
  const sentIn = (where: Where, who?: Who) =>
    fake.messages(place(where, who)).filter((m) => m.bot_id === BOT_ID).map((m) => m.text ?? "");
  return {
    connection: "slack",
    stateDir,
    model,
    harness,
    say(who, where, text, options = {}) {
      const mention = where !== "dm" && options.mention !== false;
      const said = mention ? `<@${BOT_USER_ID}> ${text}` : text;
      if (who !== "bot") return void fake.userSays(place(where, who), people[who], said);
      // Another app's bot mentions this one: Slack sends an app_mention with its bot_id.
      fake.sendEvent({
        type: "app_mention",
        user: "U0OTHERBOT",
        bot_id: "B0OTHERBOT",
        text: said,
        ts: "1735689600.000900",
        channel: place(where).id,
        event_ts: "1735689600.000900",
      });
    },
    settled: () => fake.allAcked(),
    share: (options) => pairSlackShare(account, { ...options, ownerId: people.owner.id, stateDir }),
    chat: (where) => ({ id: `${TEAM_ID}:${chats[where].id}`, title: `#${chats[where].name}` }),
    person: (who) => `${TEAM_ID}:${who === "bot" ? "U0OTHERBOT" : people[who].id}`,
    thread: (where, who) => `slack:${place(where, who).id}`,
    async carry(access: ChatAccess) {
      carrying = carrySlack({
        account,
        stateDir,
        ownerId: people.owner.id,
        access,
        endpoint: { path: harness.socket },
        caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
        clock,
        signal: stop.signal,
      });
      await fake.socketsWhen((s) => s.open === 1);
    },
    sentIn,
    async untilSent(where, who, text) {
      for (let i = 0; i < 2000 && sentIn(where, who).at(-1) !== text; i++) await clock.advance(1000);
      assert.equal(sentIn(where, who).at(-1), text);
    },
    async untilHeldSent(where, who, text) {
      const channel = place(where, who).id;
      await fake.nextCall("chat.postMessage", (c) => c.params.channel === channel && c.params.text === text);
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
