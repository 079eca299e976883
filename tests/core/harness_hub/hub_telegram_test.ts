import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import { carryTelegram } from "../../../connections/telegram/mod.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { FakeClock } from "../../support/mod.ts";
import { startHub } from "./_support.ts";

Deno.test("a Telegram connection reaches a stdio ACP agent through the hub, one ACP session per chat (telegram:<chat id>)", async () => {
  await using fake = await serveFakeTelegram();
  await using hub = await startHub();
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const clock = new FakeClock();
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const stop = new AbortController();
  const carrying = carryTelegram({
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    stateDir,
    ownerId: owner.id,
    endpoint: { path: hub.socket },
    caller: { agentId: hub.agent.id, agentName: hub.agent.name, key: hub.agent.key },
    clock,
    signal: stop.signal,
  });
  const last = () => fake.sent(chat.id).at(-1)?.text;
  const until = async (text: string) => {
    for (let i = 0; i < 600 && last() !== text; i++) await clock.advance(1000);
    assert.equal(last(), text);
  };
  try {
    fake.userSays(chat, owner, "hi");
    await until("echo(1): hi");
    fake.userSays(chat, owner, "again");
    await until("echo(2): again");
    // The same conversation as the chat's thread, from the terminal's side too.
    assert.equal(await hub.ask("from the terminal", `telegram:${chat.id}`), "echo(3): from the terminal");
  } finally {
    stop.abort();
    await carrying;
    await Deno.remove(stateDir, { recursive: true });
  }
});
